// padlab benchmark: Playwright + Debian Chromium against the built site. Repeated runs,
// medians and percentiles; prints a Markdown table. Run it through scripts/bench.sh.
import { chromium } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const base = process.env.PADLAB_URL ?? 'http://127.0.0.1:4175/';
const dist = process.env.PADLAB_DIST ?? '../dist';
const runs = Number(process.env.PADLAB_RUNS ?? 15);
const args = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]; };
const ms = (x) => `${x.toFixed(1)} ms`;

/** gzip sizes of what the first picture needs, and of what is loaded later: the code-generator
 * worker, and the Whole model view's module (when that view is first opened). */
function weight() {
  const files = readdirSync(dist).filter((f) => /\.(html|css|js|wasm)$/.test(f));
  const gz = (f) => [f, gzipSync(readFileSync(join(dist, f)), { level: 9 }).length];
  const isLater = (f) => f.startsWith('padlab-codegen') || f.startsWith('padlab-model');
  const sizes = files.filter((f) => !isLater(f)).map(gz);
  const later = files.filter(isLater).map(gz);
  const sum = (xs) => xs.reduce((a, [, s]) => a + s, 0);
  return { total: sum(sizes), sizes, later: sum(later) };
}

/** Times `runs` cold loads of `url` (a new browser context each): `init` runs before the page's
 * scripts and sets `window[key]` to the moment it measures. */
async function coldLoads(browser, url, init, key, viewport = undefined, n = runs) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const context = await browser.newContext(viewport ? { viewport } : {});
    const page = await context.newPage();
    await page.addInitScript(init);
    await page.goto(url);
    await page.waitForFunction((k) => window[k], key);
    times.push(await page.evaluate((k) => window[k], key));
    await context.close();
  }
  return times;
}

/** When the first input cell is in the page, and visible, at the next frame: a permalink's
 * page hides the pre-rendered default picture before it can be painted. */
function firstGrid(browser, url) {
  return coldLoads(browser, url, () => {
    const seen = () => {
      const cell = document.querySelector('[data-testid="cell-input"]');
      if (!cell || window.__firstGrid) return;
      const t = performance.now();
      requestAnimationFrame(() => {
        if (cell.isConnected && cell.checkVisibility() && !window.__firstGrid) window.__firstGrid = t;
      });
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  }, '__firstGrid');
}

/** Time to the first working control on a permalink: from navigation until an edit made as soon
 * as the app's kernel field exists (checked every frame) shows in the output size. The link's
 * layer is 100x20, kernel 4x1, 'valid' (97x20); kernel 3 gives 98x18. */
function firstControl(browser, site = base, n = runs) {
  return coldLoads(browser, `${site}?op=conv&fw=keras&in=100x20&k=4x1&p=valid`, () => {
    const tick = () => {
      const field = document.querySelector('form.controls input[name="kernel"]');
      if (field && !window.__asked) {
        window.__asked = true;
        field.value = '3';
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
      const out = document.querySelector('[data-testid="output-size"]');
      if (window.__asked && out && out.getAttribute('data-value') === '98x18') {
        window.__firstControl = performance.now();
        return;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, '__firstControl', undefined, n);
}

/** Time from an input event to the last change it makes to the page (controls, summary, answer
 * lines, picture…), seen by a MutationObserver on the whole app; the panels below the picture,
 * which the worker fills later (arithmetic, comparison, plot, inverse, code), are left out.
 * Waits two frames after each change. */
async function controlChange(page, size, padding = 'same', whole = false) {
  await page.goto(`${base}?op=conv&fw=keras&in=${size}x${size}&k=3&p=${padding}`);
  await page.getByTestId('output-size').waitFor();
  if (whole) await page.getByTestId('view-mode').selectOption('whole');
  await page.waitForTimeout(500);
  return page.evaluate(async (n) => {
    const input = document.querySelector('[data-testid="kernel"]');
    const app = document.getElementById('app');
    const later = (node) => {
      const el = node.nodeType === 1 ? node : node.parentElement;
      return el && el.closest('.panels');
    };
    const times = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    for (let i = 0; i < n; i++) {
      let last = null;
      const observer = new MutationObserver((records) => {
        if (records.some((m) => !later(m.target))) last = performance.now();
      });
      observer.observe(app, { childList: true, subtree: true, attributes: true, characterData: true });
      const t0 = performance.now();
      input.value = i % 2 ? '3' : '5';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      await frame();
      observer.disconnect();
      if (last !== null) times.push(last - t0);
    }
    return times;
  }, runs * 4);
}

/** Time from navigation to the answer line (the PyTorch line to paste) visible, cold. */
function answerLine(browser, url, viewport) {
  return coldLoads(browser, url, () => {
    const seen = () => {
      const code = document.querySelector('[data-testid="answer-torch"] code');
      if (!code || !code.textContent || window.__answer) return;
      const t = performance.now();
      requestAnimationFrame(() => {
        if (code.isConnected && code.checkVisibility() && !window.__answer) window.__answer = t;
      });
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true, characterData: true });
  }, '__answer', viewport);
}

/** The longest main-thread task (Long Tasks API: 50 ms and more) while `1000x1000` is typed
 * into the input field, one key every 80 ms; 0 when there is none. */
async function typingLongTask(browser) {
  const longest = [];
  for (let i = 0; i < Math.max(3, Math.floor(runs / 3)); i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}?op=conv&fw=torch&in=8x8&k=3&p=1`);
    await page.getByTestId('output-size').waitFor();
    await page.getByTestId('code-torch').waitFor({ state: 'attached' });
    await page.evaluate(() => {
      window.__tasks = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__tasks.push(e.duration); })
        .observe({ type: 'longtask' });
    });
    const input = page.getByTestId('input');
    await input.fill('');
    await input.pressSequentially('1000x1000', { delay: 80 });
    await page.getByTestId('output-size').and(page.locator('[data-value="1000x1000"]')).waitFor();
    await page.waitForTimeout(1000);
    longest.push(await page.evaluate(() => Math.max(0, ...window.__tasks)));
    await context.close();
  }
  return longest;
}

/** Time from navigation to a readable picture of 1000×1000 (cells drawn, at least 12 px). */
function readableLarge(browser) {
  return coldLoads(browser, `${base}?op=conv&fw=torch&in=1000x1000&k=3&p=1`, () => {
    const seen = () => {
      const frame = document.querySelector('[data-testid="picture"]');
      const cell = frame && frame.querySelector('[data-testid="cell-input"]');
      if (!cell || window.__readable || Number(frame.getAttribute('data-cell-px')) < 12) return;
      const t = performance.now();
      requestAnimationFrame(() => { if (cell.isConnected && !window.__readable) window.__readable = t; });
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true, attributes: true });
  }, '__readable', { width: 1280, height: 900 });
}

/** Frame times while the window animates at 60 steps per second. */
async function animation(page, size, seconds) {
  await page.goto(`${base}?op=conv&fw=torch&in=${size}x${size}&k=3&p=1`);
  await page.getByTestId('output-size').waitFor();
  const drawn = await page.getByTestId('grid-svg').isVisible();
  if (!drawn) return { drawn: false };
  const renderer = await page.getByTestId('grid-svg').getAttribute('data-renderer');
  await page.getByTestId('speed').selectOption('16');
  await page.getByTestId('play').click();
  const frames = await page.evaluate((s) => new Promise((done) => {
    const out = []; let last = performance.now(); const end = last + s * 1000;
    const tick = (t) => { out.push(t - last); last = t; if (t < end) requestAnimationFrame(tick); else done(out); };
    requestAnimationFrame(tick);
  }), seconds);
  await page.getByTestId('play').click();
  const body = frames.slice(2);
  return { drawn: true, renderer, fps: 1000 / pct(body, 0.5), p95: pct(body, 0.95), max: Math.max(...body) };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args });
if (process.env.PADLAB_URL_B) {
  // Two builds compared on the first working control, their loads interleaved (one of A, then
  // one of B, `runs` times), so the shared machine's load falls on both alike.
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(...await firstControl(browser, base, 1));
    b.push(...await firstControl(browser, process.env.PADLAB_URL_B, 1));
  }
  await browser.close();
  console.log(`first working control on a permalink, median of ${runs} interleaved loads (fastest): A ${ms(pct(a, 0.5))} (${ms(Math.min(...a))}), B ${ms(pct(b, 0.5))} (${ms(Math.min(...b))})`);
  process.exit(0);
}
const w = weight();
const grid = await firstGrid(browser, base);
// A permalink to another layer has no pre-rendered picture: the wasm draws it.
const gridLink = await firstGrid(browser, `${base}?op=conv&fw=keras&in=100x20&k=4x1&p=same`);
const control = await firstControl(browser);
const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
const c32 = await controlChange(page, 32);
const c128 = await controlChange(page, 128);
// The whole 128×128 layer drawn (one SVG element per cell): a kernel change that keeps the
// output size ('same') and one that changes it ('valid').
const c128same = await controlChange(page, 128, 'same', true);
const c128valid = await controlChange(page, 128, 'valid', true);
const answerDesktop = await answerLine(browser, `${base}?op=conv&fw=keras&in=100x20&k=4x1&p=same`, { width: 1280, height: 720 });
const answerPhone = await answerLine(browser, `${base}?op=conv&fw=keras&in=100x20&k=4x1&p=same`, { width: 390, height: 844 });
const typing = await typingLongTask(browser);
const readable = await readableLarge(browser);
const a64 = await animation(page, 64, 3);
const large = [];
for (const size of [96, 128, 160, 192, 256, 512]) large.push([size, await animation(page, size, 1.5)]);
await browser.close();

console.log(`| measure | result | target |`);
console.log(`|---|---|---|`);
const staticPart = w.sizes.filter(([f]) => /\.(html|css)$/.test(f)).reduce((a, [, s]) => a + s, 0);
console.log(`| first-load weight, default page: its picture is pre-rendered, so html + css (gzip) | ${(staticPart / 1024).toFixed(1)} KB | ≤ 80 KB |`);
console.log(`| first-load weight, interactive or a permalink (gzip: ${w.sizes.map(([f, s]) => `${f.replace(/-[0-9a-f]{8,}/, '')} ${(s / 1024).toFixed(1)} KB`).join(', ')}) | ${(w.total / 1024).toFixed(1)} KB | ≤ 80 KB |`);
console.log(`| worker and Whole model view, loaded after the first picture or when opened (gzip) | ${(w.later / 1024).toFixed(1)} KB | on demand |`);
console.log(`| first grid visible, default page, median of ${runs} cold loads (p95) | ${ms(pct(grid, 0.5))} (${ms(pct(grid, 0.95))}) | ≤ 60 ms |`);
console.log(`| first grid visible, permalink (drawn by the wasm), median (p95) | ${ms(pct(gridLink, 0.5))} (${ms(pct(gridLink, 0.95))}) | ≤ 60 ms |`);
console.log(`| first working control on a permalink (an edit shows in the output size), median (p95) | ${ms(pct(control, 0.5))} (${ms(pct(control, 0.95))}) | — |`);
console.log(`| control change → DOM updated, 32×32, p50 / p95 | ${ms(pct(c32, 0.5))} / ${ms(pct(c32, 0.95))} | p95 ≤ 4 ms |`);
console.log(`| control change → DOM updated, 128×128, p50 / p95 | ${ms(pct(c128, 0.5))} / ${ms(pct(c128, 0.95))} | p95 ≤ 16 ms |`);
console.log(`| control change → DOM updated, whole 128×128 drawn, output size kept ('same', k 3↔5), p50 / p95 | ${ms(pct(c128same, 0.5))} / ${ms(pct(c128same, 0.95))} | p95 ≤ 16 ms |`);
console.log(`| control change → DOM updated, whole 128×128 drawn, output size changes ('valid', k 3↔5), p50 / p95 | ${ms(pct(c128valid, 0.5))} / ${ms(pct(c128valid, 0.95))} | p95 ≤ 16 ms |`);
console.log(`| answer line visible, seed 000's link, desktop 1280×720, median (p95) | ${ms(pct(answerDesktop, 0.5))} (${ms(pct(answerDesktop, 0.95))}) | ≤ 250 ms |`);
console.log(`| answer line visible, seed 000's link, phone 390×844, median (p95) | ${ms(pct(answerPhone, 0.5))} (${ms(pct(answerPhone, 0.95))}) | ≤ 250 ms |`);
console.log(`| longest task while typing 1000x1000 (Long Tasks ≥ 50 ms; 0: none), worst of ${typing.length} | ${ms(Math.max(...typing))} | < 50 ms |`);
console.log(`| readable picture of 1000×1000 (cells ≥ 12 px) after navigation, median (p95) | ${ms(pct(readable, 0.5))} (${ms(pct(readable, 0.95))}) | ≤ 250 ms |`);
console.log(`| animation at 64×64: fps (frame p95, max) | ${a64.fps.toFixed(0)} fps (${ms(a64.p95)}, ${ms(a64.max)}) | 60 fps |`);
for (const [size, r] of large) {
  console.log(`| animation at ${size}×${size}: max frame | ${r.drawn ? `${ms(r.max)} (${r.fps.toFixed(0)} fps, ${r.renderer})` : 'not drawn (cell budget)'} | no frame > 50 ms up to ≥ 256×256 |`);
}
