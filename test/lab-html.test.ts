// scout lab --html in a real headless Chromium: the page renders, its charts are there and drawn, and every
// number on it is the one --json printed. Chromium comes from Debian's packages; .ci/run installs it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabReport } from "../src/lab/report.js";
import { formatCount } from "../src/guards/format.js";
import { CHROMIUM, chromium as openIn, colourCounts, elements, measure, requireChromium } from "./chromium.js";
import { makeTree, questionsOf, REPO_ROOT, runCli } from "./helpers.js";
import { readPng } from "./png.js";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "scout-lab-html-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const page = path.join(work, "report.html");
let report: LabReport;
let source: string;

beforeAll(async () => {
  // Four of the sample set's questions: the page's shape and figures, not the set's size, are the point.
  const set = questionsOf("lessons/questions/sample-project.json", [
    "make-slug-defined",
    "https-used",
    "python-files",
    "no-delete-link",
  ]);
  const lab = await runCli(
    ["lab", set, "--variant", "cap=50", "--variant", "descriptions=concise", "--json", "--html", page],
    { env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined }, timeoutMs: 60_000 },
  );
  expect(lab.code, lab.stderr).toBe(0);
  report = JSON.parse(lab.stdout);
  source = fs.readFileSync(page, "utf8");
}, 90_000);

/**
 * One Chromium for both tests of the page: its DOM after layout, and a screenshot 1200 × 1400 (each launch
 * takes some 2 s). The DOM does not depend on the window: the page has no script.
 */
let opened: Promise<{ dom: string; png: string }> | undefined;
const openPage = () => {
  const png = path.join(work, "report.png");
  opened ??= openIn(
    page,
    ["--virtual-time-budget=5000", "--dump-dom", "--window-size=1200,1400", `--screenshot=${png}`],
    work,
  ).then((dom) => ({ dom, png }));
  return opened;
};

describe("the HTML page", { timeout: 120_000 }, () => {
  it("is self-contained: no script, no stylesheet, font or image from anywhere", () => {
    expect(source).toMatch(/^<!DOCTYPE html>/);
    expect(source).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|\bhref=|url\(|@import/i);
  });

  requireChromium("the HTML page of scout lab");

  it.skipIf(!CHROMIUM)("renders in Chromium with its charts, and every number is the one --json printed", async () => {
    const { dom } = await openPage();
    expect(dom).toContain(`<h1>scout lab: ${report.set.title}</h1>`);
    // Three charts of totals, one per change figure with a value, one per question.
    const changes = report.variants[1].dollarsChange?.cached == null ? 3 : 4;
    expect(elements(dom, "svg").length).toBe(3 + changes + report.set.questions);

    const cells = elements(dom, "td").filter((td) => td["data-figure"]);
    const cellText = (variant: string, figure: string) => {
      const match = new RegExp(`<td[^>]*data-variant="${variant}" data-figure="${figure}">([^<]*)</td>`).exec(dom);
      return match?.[1];
    };
    expect(cells.length).toBe(report.variants.length * 6);
    const bars = elements(dom, "rect");
    const bar = (variant: string, figure: string) =>
      bars.find((b) => b["data-variant"] === variant && b["data-figure"] === figure)?.["data-value"];
    for (const variant of report.variants) {
      const t = variant.totals;
      expect(cellText(variant.name, "right")).toBe(`${t.right}/${report.set.questions}`);
      expect(cellText(variant.name, "inputTokens")).toBe(formatCount(t.inputTokens));
      expect(cellText(variant.name, "toolResultTokens")).toBe(formatCount(t.toolResultTokens));
      expect(cellText(variant.name, "schemaTokens")).toBe(`~${formatCount(variant.schemaTokens)}`);
      expect(bar(variant.name, "inputTokens")).toBe(String(t.inputTokens));
      expect(bar(variant.name, "right")).toBe(String(t.right));
      for (const [tool, tokens] of Object.entries(t.toolResultTokensByTool))
        expect(bar(variant.name, `toolResultTokens.${tool}`)).toBe(String(tokens));
    }

    // The per-question table: each variant's input tokens of its first run.
    const perQuestion = elements(dom, "td").filter((td) => td["data-question"]);
    expect(perQuestion.length).toBe(report.set.questions * report.variants.length);
    for (const td of perQuestion) {
      const variant = report.variants.find((v) => v.name === td["data-variant"])!;
      const run = variant.questions.find((q) => q.id === td["data-question"])!.runs[0];
      expect(Number(td["data-input-tokens"])).toBe(run.inputTokens);
    }

    // One small chart per question; its points are the input tokens of each model call, per variant.
    const figures = dom.split('<figure class="step-chart"').slice(1);
    expect(figures.length).toBe(report.set.questions);
    for (const [q, figure] of figures.entries()) {
      expect(figure).toContain(`data-question="${report.variants[0].questions[q].id}"`);
      for (const variant of report.variants) {
        const drawn = elements(figure.split("</figure>")[0], "rect")
          .filter((point) => point["data-variant"] === variant.name)
          .map((point) => Number(point["data-value"]));
        const steps = variant.questions[q].runs[0].steps.flatMap((s) => (s.kind === "model" ? [s.inputTokens] : []));
        expect(drawn).toEqual(steps);
      }
    }
  });

  it.skipIf(!CHROMIUM)("is drawn: a screenshot shows each variant's colour in its bars", async () => {
    const { png } = await openPage();
    const pixels = readPng(fs.readFileSync(png));
    expect([pixels.width, pixels.height]).toEqual([1200, 1400]);
    const counts = colourCounts(pixels);
    // The three variants' colours (charts.ts), each filling bars of a few thousand pixels (every 4th counted).
    for (const colour of ["4e79a7", "f28e2b", "59a14f"]) expect(counts.get(colour) ?? 0).toBeGreaterThan(1_000);
    expect(counts.get("ffffff") ?? 0).toBeLessThan((pixels.width * pixels.height) / 4); // not a blank page
  });
});

describe("the HTML page's source", () => {
  it("escapes what a question set holds", async () => {
    const { renderHtml } = await import("../src/lab/html.js");
    const hostile = structuredClone(report);
    hostile.set.title = '<script>alert("x")</script>\u001b[2J';
    hostile.variants[0].questions[0].question = "<img src=x onerror=alert(1)>";
    const html = renderHtml(hostile);
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\x1b[2J");
    expect(html).not.toContain("\u001b");
  });
});

/**
 * Seven designs beside the baseline (MAX_VARIANTS), on a set with a question every design gets wrong; the last
 * (added below) names a descriptions file by its path: a long name with no space to break at.
 */
const SEVEN = ["cap=50", "cap=20", "descriptions=concise", "line-numbers=off", "sort=path", "cap=200"];

describe("the HTML page with seven variants, slide-ready", { timeout: 120_000 }, () => {
  let seven: LabReport;
  let sevenPage: string;
  let setDir: string;
  beforeAll(async () => {
    setDir = makeTree({
      "descriptions-in-another-agents-style.json": JSON.stringify({ grep: "Search file contents with a regex." }),
      "set.json": JSON.stringify({
        title: "seven designs",
        questions: [
          {
            id: "make-slug",
            question: "Where is make_slug defined?",
            expect: { locations: ["src/shortly/slugs.py:/^def make_slug/"] },
          },
          // LinkStore is in store.py: every design's answer is wrong, with a reason.
          {
            id: "wrong-on-purpose",
            question: "Where is the LinkStore class defined?",
            expect: { locations: ["src/shortly/api.py:/^def shorten/"] },
          },
          { id: "tests", question: "which test files are there?", expect: { pattern: "test_slugs" } },
        ],
      }),
    });
    sevenPage = path.join(work, "seven.html");
    const lab = await runCli(
      [
        "lab",
        path.join(setDir, "set.json"),
        "--cwd",
        path.join(REPO_ROOT, "lessons/sample-project"),
        ...[...SEVEN, `cap=50,descriptions=${path.join(setDir, "descriptions-in-another-agents-style.json")}`].flatMap(
          (v) => ["--variant", v],
        ),
        "--json",
        "--html",
        sevenPage,
      ],
      { env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined }, timeoutMs: 60_000 },
    );
    expect(lab.code, lab.stderr).toBe(0);
    seven = JSON.parse(lab.stdout);
    expect(seven.variants).toHaveLength(8);
  }, 90_000);
  afterAll(() => fs.rmSync(setDir, { recursive: true, force: true }));

  // Two Chromium launches for the tests below: the DOM, and one page that runs every test's measuring
  // script (each launch takes some 2 s); each test reads its own part.
  let dom: Promise<string> | undefined;
  const sevenDom = () => (dom ??= openIn(sevenPage, ["--virtual-time-budget=5000", "--dump-dom"], work));
  const MEASURES: Record<string, string> = {
    wider: `const wider = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > 1400);
       return { scrollWidth: document.documentElement.scrollWidth, wider: wider.map((e) => e.tagName + (e.id ? "#" + e.id : "")) };`,
    changeBars: `return [...document.querySelectorAll("#change-charts rect")].map((r) => {
         const zero = r.ownerSVGElement.querySelector("line").getBoundingClientRect().left;
         const box = r.getBoundingClientRect();
         return { figure: r.dataset.figure, value: Number(r.dataset.value), left: box.left, width: box.width, zero };
       });`,
    stepBars: `return [...document.querySelectorAll("#step-charts rect.point")].map((r) => ({
         value: Number(r.dataset.value), height: r.getBoundingClientRect().height, left: r.getBoundingClientRect().left,
         question: r.closest("figure").dataset.question }));`,
    cells: `return [...document.querySelectorAll("td[data-question]")].map((td) => ({
         variant: td.dataset.variant, question: td.dataset.question, text: td.innerText }));`,
  };
  let measured: Promise<Record<string, any>> | undefined;
  /** What MEASURES[name] found in the seven-variant page, laid out 1400 pixels wide. */
  const measureSeven = async (name: keyof typeof MEASURES) => {
    const all = Object.entries(MEASURES).map(([key, body]) => `${JSON.stringify(key)}: (() => { ${body} })()`);
    measured ??= measure(sevenPage, `return { ${all.join(", ")} };`, 1400, work);
    return (await measured)[name];
  };

  it.skipIf(!CHROMIUM)("fits a 1400-pixel screen: nothing is wider, nothing scrolls sideways", async () => {
    const found = await measureSeven("wider");
    expect(found.wider).toEqual([]);
    expect(found.scrollWidth).toBeLessThanOrEqual(1400);
  });

  it.skipIf(!CHROMIUM)(
    "charts each variant's change against the baseline, with the values --json printed, drawn to scale",
    async () => {
      const dom = await sevenDom();
      const bars = elements(dom, "rect").filter((rect) => /^(change|dollarsChange)\./.test(rect["data-figure"] ?? ""));
      const figures = {
        "change.inputTokens": (v: LabReport["variants"][number]) => v.change?.inputTokens,
        "change.toolResultTokens": (v: LabReport["variants"][number]) => v.change?.toolResultTokens,
        "dollarsChange.uncached": (v: LabReport["variants"][number]) => v.dollarsChange?.uncached,
      };
      for (const [figure, value] of Object.entries(figures))
        for (const variant of seven.variants.slice(1)) {
          const bar = bars.find((b) => b["data-figure"] === figure && b["data-variant"] === variant.name);
          expect(Number(bar?.["data-value"]), `${figure} of ${variant.name}`).toBe(value(variant));
        }
      expect(bars.some((b) => b["data-variant"] === "baseline")).toBe(false);
      // In the browser: within a chart, bar length per percent is one figure, and less than the baseline goes left.
      const drawn: { figure: string; value: number; left: number; width: number; zero: number }[] =
        await measureSeven("changeBars");
      for (const figure of Object.keys(figures)) {
        const chart = drawn.filter((d) => d.figure === figure && Math.abs(d.value) >= 0.5);
        const perPercent = chart.map((d) => d.width / Math.abs(d.value));
        expect(Math.max(...perPercent) - Math.min(...perPercent), figure).toBeLessThan(2);
        for (const d of chart)
          if (d.value < 0) expect(d.left + d.width).toBeCloseTo(d.zero, 0);
          else expect(d.left).toBeCloseTo(d.zero, 0);
      }
    },
  );

  it.skipIf(!CHROMIUM)("gives every colour one meaning: a variant's is no tool's", async () => {
    const dom = await sevenDom();
    const meanings = new Map<string, Set<string>>();
    for (const rect of elements(dom, "rect").filter((r) => r.fill)) {
      const tool = /^toolResultTokens\.(.+)$/.exec(rect["data-figure"] ?? "")?.[1];
      const meaning = tool ? `tool ${tool}` : `variant ${rect["data-variant"]}`;
      meanings.set(rect.fill, (meanings.get(rect.fill) ?? new Set()).add(meaning));
    }
    for (const [colour, meant] of meanings) expect([...meant], colour).toHaveLength(1);
    expect(meanings.size).toBe(8 + Object.keys(seven.variants[0].totals.toolResultTokensByTool).length);
  });

  it.skipIf(!CHROMIUM)(
    "draws every per-question chart on one scale, each variant's bar beside the others",
    async () => {
      const top = Math.max(
        ...seven.variants.flatMap((v) =>
          v.questions.flatMap((q) => q.runs[0].steps.flatMap((s) => (s.kind === "model" ? [s.inputTokens] : []))),
        ),
      );
      const drawn: { value: number; height: number; left: number; question: string }[] = await measureSeven("stepBars");
      expect(drawn.length).toBeGreaterThan(8 * 3);
      const perToken = drawn.map((d) => d.height / d.value);
      expect(Math.max(...perToken) - Math.min(...perToken)).toBeLessThan(1 / top); // under a pixel at the top
      const dom = await sevenDom();
      expect(
        new Set(
          elements(dom, "svg")
            .filter((s) => s["data-scale"])
            .map((s) => s["data-scale"]),
        ),
      ).toEqual(new Set([String(top)]));
      // Side by side, not on top of each other: no two bars of a chart start at the same x.
      for (const question of new Set(drawn.map((d) => d.question))) {
        const lefts = drawn.filter((d) => d.question === question).map((d) => Math.round(d.left * 10));
        expect(new Set(lefts).size, question).toBe(lefts.length);
      }
    },
  );

  it.skipIf(!CHROMIUM)("shows why each wrong answer is wrong on the page, not only in a tooltip", async () => {
    const cells: { variant: string; question: string; text: string }[] = await measureSeven("cells");
    const wrong = seven.variants.flatMap((v) =>
      v.questions.filter((q) => !q.runs[0].right).map((q) => ({ variant: v.name, question: q.id, why: q.runs[0].why })),
    );
    expect(wrong.length).toBeGreaterThanOrEqual(8);
    for (const { variant, question, why } of wrong) {
      expect(why).not.toBe("");
      const cell = cells.find((c) => c.variant === variant && c.question === question);
      expect(cell?.text, `${variant} · ${question}`).toContain(why);
    }
  });
});
