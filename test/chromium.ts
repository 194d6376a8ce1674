// A real headless Chromium for the tests of Scout's HTML pages: found on PATH, run isolated, and loud when missing.
//
// Without Chromium the browser tests are skipped with a banner on a
// developer's machine and fail in CI (.ci/run installs it from Debian).
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { it } from "vitest";

const run = promisify(execFile);

/** The browser on PATH, if any. */
export const CHROMIUM = ["chromium", "chromium-browser"]
  .flatMap((name) => (process.env.PATH ?? "").split(path.delimiter).map((dir) => path.join(dir, name)))
  .find((file) => fs.existsSync(file));

/** Warns (once per test file) that `what` is not tested in a browser, and adds a test that fails in CI. */
export function requireChromium(what: string): void {
  const missing = `Chromium is not installed, so ${what} is NOT tested in a browser.
Install it (as root): apt-get update && apt-get install -y chromium   (.ci/run does this in CI)`;
  if (!CHROMIUM && !process.env.CI) console.warn(`\n${"!".repeat(78)}\n${missing}\n${"!".repeat(78)}\n`);
  it("has Chromium to test with", () => {
    // In CI a missing browser is a failure; on a developer's machine the warning above says it is skipped.
    if (!CHROMIUM && process.env.CI) throw new Error(missing);
  });
}

/** Chromium, headless, isolated (a fresh profile under `work`, no network chatter), on the file `page`. */
export async function chromium(page: string, args: string[], work: string): Promise<string> {
  const profile = fs.mkdtempSync(path.join(work, "profile-"));
  const flags = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--hide-scrollbars",
    `--user-data-dir=${profile}`,
  ];
  if (!CHROMIUM) throw new Error("no Chromium on PATH");
  const { stdout } = await run(CHROMIUM, [...flags, ...args, `file://${page}`], {
    timeout: 90_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/**
 * What `script` (the body of a function returning JSON-ready data) finds in `page` laid out in a window `width`
 * pixels wide. The page itself has no script: a copy with the script appended is what Chromium opens.
 */
export async function measure(page: string, script: string, width: number, work: string): Promise<any> {
  const copy = path.join(work, `measured-${path.basename(page)}`);
  const probe = `<script>document.addEventListener("DOMContentLoaded", () => {
    const out = document.createElement("pre"); out.id = "measured";
    out.textContent = JSON.stringify((() => { ${script} })());
    document.body.appendChild(out);
  });</script>`;
  fs.writeFileSync(copy, fs.readFileSync(page, "utf8").replace("</body>", `${probe}</body>`));
  const dom = await chromium(copy, [`--window-size=${width},900`, "--virtual-time-budget=5000", "--dump-dom"], work);
  const found = /<pre id="measured">([\s\S]*?)<\/pre>/.exec(dom);
  if (!found) throw new Error("the measuring script wrote nothing");
  return JSON.parse(
    found[1]
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
  );
}

/** Every element `tag` of the DOM, as its attributes. */
export function elements(dom: string, tag: string): Record<string, string>[] {
  return [...dom.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, "g"))].map((match) =>
    Object.fromEntries(
      [...match[1].matchAll(/([\w-]+)="([^"]*)"/g)].map(([, key, value]) => [key, value.replace(/&amp;/g, "&")]),
    ),
  );
}

/** How many sampled pixels (every 2nd in each direction) of a screenshot have each colour, as "rrggbb". */
export function colourCounts(pixels: { width: number; height: number; at(x: number, y: number): number[] }) {
  const counts = new Map<string, number>();
  for (let y = 0; y < pixels.height; y += 2)
    for (let x = 0; x < pixels.width; x += 2) {
      const key = pixels
        .at(x, y)
        .map((c) => c.toString(16).padStart(2, "0"))
        .join("");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  return counts;
}
