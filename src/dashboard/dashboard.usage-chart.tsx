// A key's requests per day as an inline SVG bar chart (no script or style attribute: the CSP allows none); figures in
// aria-label and <title>s, and no requests said in words.
import type { FC } from "hono/jsx";

const CHART_BAR_WIDTH = 3;
const CHART_GAP = 1;
const CHART_HEIGHT = 28;

export interface Day {
  date: string;
  requests: number;
}

const plural = (n: number) => `${n} request${n === 1 ? "" : "s"}`;

/** What the chart says in words: total, busiest day and the range. */
export function chartLabel(days: readonly Day[]): string {
  if (days.length === 0) return "No usage figures";
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const range = `${days[0]!.date} to ${days[days.length - 1]!.date}`;
  if (total === 0) return `Requests per day, ${range}: none`;
  const busiest = days.reduce((best, d) => (d.requests > best.requests ? d : best), days[0]!);
  return `Requests per day, ${range}: ${plural(total)} in total, most on ${busiest.date} (${busiest.requests})`;
}

export const UsageChart: FC<{ days: readonly Day[] }> = ({ days }) => {
  // Nothing to draw: a bare axis would look like an input's underline.
  if (days.every((d) => d.requests === 0)) {
    return (
      <span class="hint chart-none">
        {days.length === 0 ? "no usage figures" : `no requests in ${days.length} days`}
      </span>
    );
  }
  const max = Math.max(1, ...days.map((d) => d.requests));
  const step = CHART_BAR_WIDTH + CHART_GAP;
  const width = days.length * step - CHART_GAP;
  return (
    <svg
      class="chart"
      role="img"
      aria-label={chartLabel(days)}
      width={width}
      height={CHART_HEIGHT}
      viewBox={`0 0 ${width} ${CHART_HEIGHT}`}
    >
      <title>{days.map((d) => `${d.date}: ${d.requests}`).join("\n")}</title>
      <line x1="0" y1={CHART_HEIGHT - 0.5} x2={width} y2={CHART_HEIGHT - 0.5} class="chart-axis" />
      {days.map((d, i) => {
        // A day with any request is at least 2 px tall, so that it shows.
        const h = d.requests === 0 ? 0 : Math.max(2, Math.round((d.requests / max) * (CHART_HEIGHT - 2)));
        return (
          <rect x={i * step} y={CHART_HEIGHT - 1 - h} width={CHART_BAR_WIDTH} height={h} class="chart-bar">
            <title>{`${d.date}: ${plural(d.requests)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
};
