import { existsSync } from "node:fs";

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH when set, else Debian's headless shell
 * (`apt-get install chromium-headless-shell`, the same Blink without the desktop browser's UI
 * layers, about a quarter less CPU per test), else Debian's Chromium. Undefined when none is there.
 */
export function testBrowserPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path));
}
