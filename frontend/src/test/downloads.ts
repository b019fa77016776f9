import { vi } from "vitest";

/**
 * Catches what `downloadText` hands the browser: the blobs, in order. jsdom cannot save a
 * file, so the object URLs and the link's click are stubbed (restored after the file).
 */
export function captureDownloads(): Blob[] {
  const blobs: Blob[] = [];
  vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
    blobs.push(b as Blob);
    return "blob:download";
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
  return blobs;
}
