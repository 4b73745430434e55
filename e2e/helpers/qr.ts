// A dashboard QR code read back as a phone's camera would: the inline SVG's paths drawn on a canvas,
// its pixels decoded by jsQR. Shared by the dashboard's tests and the field app's enrollment test.
import jsQR from "jsqr";
import type { Locator } from "playwright-core";

/** The text that the QR code `svg` encodes, or null when jsQR finds none. */
export async function readQrCode(svg: Locator, size = 400): Promise<string | null> {
  const image = await svg.evaluate((el, px) => {
    const modules = Number(el.getAttribute("viewBox")!.split(" ")[2]);
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = px;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, px, px);
    ctx.scale(px / modules, px / modules);
    ctx.fillStyle = "#000";
    for (const path of el.querySelectorAll("path")) ctx.fill(new Path2D(path.getAttribute("d")!));
    // As base64: a plain array of every channel takes seconds to cross to the test.
    const bytes = ctx.getImageData(0, 0, px, px).data;
    let binary = "";
    for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
    return btoa(binary);
  }, size);
  return jsQR(new Uint8ClampedArray(Buffer.from(image, "base64")), size, size)?.data ?? null;
}
