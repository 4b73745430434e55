// A UTC time as the dashboard shows it: to the minute, machine-readable in datetime.
import type { FC } from "hono/jsx";

export const Time: FC<{ iso: string }> = ({ iso }) => (
  <time datetime={iso}>{`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`}</time>
);
