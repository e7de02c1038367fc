// A big model pasted into the Whole model view, then edited and typed into (issue 17: no
// main-thread task of 50 ms or more while a model is typed or pasted): Playwright + Debian
// Chromium against the built site. Each run opens the page in a fresh context, opens the view,
// gives the input shape, leaves the view's worker time to start, then pastes the model (one
// input event, as a paste makes) and waits for its rows and the shown tab's code; then edits it
// (a comment line added, one input event) and waits for the new output; then types seven keys
// at its end and waits for the output again. The Long Tasks API records the main-thread tasks
// of 50 ms and more from each change on; a MutationObserver times the last row. The page is touched as little as possible while it works: no locator polls it (a
// locator runs Playwright's selector engine over the page, about 10 ms of its thread once a big
// output is in).
// With PADLAB_CPU=1 each paste is also traced (the 'toplevel' category only) and the page's
// main-thread tasks report their thread (CPU) time beside their wall time: on a loaded machine a
// task's wall time can be mostly time spent waiting (preempted, or in a synchronous call to the
// browser process). With PADLAB_URL_B two builds are measured, their runs interleaved.
// Medians and maxima over PADLAB_RUNS runs; reports, never assertions. Serve a build
// (`python3 serve.py 4175 ../dist /` here in e2e/) and run `node bench-model.mjs`.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';

const sites = [process.env.PADLAB_URL ?? 'http://127.0.0.1:4175/', process.env.PADLAB_URL_B].filter(Boolean);
const runs = Number(process.env.PADLAB_RUNS ?? 12);
const width = Number(process.env.PADLAB_WIDTH ?? 1280);
const cpu = process.env.PADLAB_CPU === '1';
// How long the view is left to start (its worker's wasm compiling) before the paste, in ms.
const settle = Number(process.env.PADLAB_SETTLE ?? 1500);
const args = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
// The corpus file without its padlab header lines, and the line that builds the model:
// ResNet-152 (515 rows), or with PADLAB_LAYERS="3,8,144,3" a deeper one of the same blocks
// (1,595 rows).
// With PADLAB_CHAIN=N instead: a torch Sequential of N layers (a conv, then BatchNorm / ReLU
// pairs), the paste scripts/bench-reader.py times natively, at 3x8x8.
const layers = process.env.PADLAB_LAYERS;
const chain = Number(process.env.PADLAB_CHAIN ?? 0);
const build = chain ? `a Sequential of ${chain} layers` : layers ? `ResNet(block, [${layers}], 3, 1000)` : 'ResNet152()';
const model = chain
  ? 'import torch.nn as nn\nmodel = nn.Sequential(\n    nn.Conv2d(3, 8, 3, padding=1),\n'
    + Array.from({ length: chain - 1 }, (_, k) => (k % 2 ? '    nn.ReLU(),' : '    nn.BatchNorm2d(8),')).join('\n') + '\n)\n'
  : readFileSync(new URL('../tests/models/torch_resnet152.py', import.meta.url), 'utf8')
    .split('\n').filter((l) => !l.startsWith('# padlab-')).join('\n') + `\nmodel = ${build}\n`;
const inputShape = chain ? '3x8x8' : '3x224x224';
// The torch port's last line: a module class's construction, or a Sequential's close.
const codeEnd = chain ? ')\n' : 'model = Model()\n';

/** The page's workers' tasks in a trace: [start µs, wall ms, thread ms] each (the model
 * view's worker reads, traces and ports the paste). */
function workerTasksOf(traceEvents) {
  const workers = new Set(traceEvents
    .filter((e) => e.ph === 'M' && e.name === 'thread_name' && /Worker/.test(e.args.name ?? ''))
    .map((e) => `${e.pid}:${e.tid}`));
  return traceEvents.filter((e) => e.ph === 'X' && /RunTask/.test(e.name) && workers.has(`${e.pid}:${e.tid}`))
    .map((e) => [e.ts, e.dur / 1000, (e.tdur ?? 0) / 1000]);
}

/** The page's main-thread tasks in a trace: [wall ms, thread ms] each. */
function tasksOf(trace) {
  const { traceEvents } = JSON.parse(trace.toString());
  const main = new Set(traceEvents
    .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  const tasks = traceEvents.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask'
    && main.has(`${e.pid}:${e.tid}`));
  // The page's renderer is the one that worked most.
  const work = new Map();
  for (const t of tasks) work.set(t.pid, (work.get(t.pid) ?? 0) + t.dur);
  const pid = [...work].sort((a, b) => b[1] - a[1])[0]?.[0];
  const out = tasks.filter((t) => t.pid === pid).map((t) => [t.dur / 1000, (t.tdur ?? 0) / 1000]);
  out.worker = workerTasksOf(traceEvents);
  return out;
}

/** Changes the model field (`act`: a paste, or keys typed) and waits for a new output with all
 * its rows and the shown tab's code. Returns the long tasks seen, the time from the last input
 * event to the last row, and (PADLAB_CPU) the traced tasks. */
async function change(browser, page, act) {
  await page.evaluate(() => {
    const w = window;
    w.__long = [];
    w.__lastRow = 0;
    w.__rows = 0;
    w.__observer?.disconnect();
    w.__longObserver?.disconnect();
    w.__longObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long.push(e.duration);
    });
    w.__longObserver.observe({ type: 'longtask' });
    const out = document.getElementById('model-output');
    out.firstElementChild?.setAttribute('data-old', '');
    // Light on the page: a piece of rows is a tbody of rows, counted without touching them
    // (a script wrapper per row would be garbage for the page's collector).
    w.__observer = new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n.nodeType !== 1) continue;
          if (n.parentElement === out) w.__rows = 0;
          if (n.tagName === 'TBODY') {
            w.__rows += n.childElementCount;
            w.__lastRow = performance.now();
          }
        }
      }
    });
    w.__observer.observe(out, { childList: true, subtree: true });
  });
  if (cpu) await browser.startTracing(page, { categories: ['toplevel', '__metadata'] });
  await act();
  // The code comes first, then the rows: done when the code has its last line and no row has
  // come for half a second.
  await page.waitForFunction((end) => !document.querySelector('#model-output > [data-old]')
    && document.getElementById('model-code-text-torch')?.lastElementChild?.textContent.endsWith(end)
    && window.__rows > 0 && performance.now() - window.__lastRow > 500,
  codeEnd, { timeout: 120_000, polling: 100 });
  // Tasks that follow the last piece (a collection, say) count too.
  await page.waitForTimeout(100);
  const tasks = cpu ? tasksOf(await browser.stopTracing()) : [];
  const { long, lastRow, rows } = await page.evaluate(() => ({
    long: window.__long,
    lastRow: window.__lastRow - window.__pasted,
    rows: window.__rows,
  }));
  return { longest: Math.max(0, ...long), long, lastRow, rows, tasks };
}

async function run(browser, site) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(site);
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-input').fill(inputShape);
  // The view's worker starts (its wasm compiles) before the paste.
  await page.waitForTimeout(settle);
  await page.evaluate(() => document.getElementById('model-source')
    .addEventListener('input', () => { window.__pasted = performance.now(); }));
  // By id, in the page: a locator would run Playwright's selector engine over the whole page
  // first (about 10 ms on the page's thread with a big model's output in it).
  const paste = (text) => () => page.evaluate((value) => {
    const el = document.getElementById('model-source');
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  const first = await change(browser, page, paste(model));
  const edit = await change(browser, page, paste(`${model}# edited\n`));
  // Keys typed at the end of the text, 90 ms apart: the textarea's own editing per key, and
  // the output once typing pauses.
  const typed = await change(browser, page, async () => {
    await page.evaluate(() => {
      const el = document.getElementById('model-source');
      el.focus();
      el.setSelectionRange(el.value.length, el.value.length);
    });
    await page.keyboard.type('# typed', { delay: 90 });
  });
  await context.close();
  return { first, edit, typed };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args });
const results = sites.map(() => []);
for (let i = 0; i < runs; i++) {
  // Interleaved, the order swapped every other run, so the machine's load falls on both alike.
  const order = i % 2 ? [...sites.keys()].reverse() : [...sites.keys()];
  for (const s of order) results[s].push(await run(browser, sites[s]));
}
await browser.close();

const f = (x) => x.toFixed(0);
const rows = results[0][0].first.rows;
console.log(`${build} (${rows} rows) pasted, ${runs} runs per build, viewport ${width}×900`);
for (const [s, site] of sites.entries()) {
  console.log(`\n${site}`);
  for (const kind of ['first', 'edit', 'typed']) {
    const rs = results[s].map((r) => r[kind]);
    const longest = rs.map((r) => r.longest);
    const what = {
      first: 'paste into the fresh view',
      edit: 'the pasted model edited (one input event)',
      typed: '"# typed" typed at its end, a key every 90 ms',
    }[kind];
    console.log(`${what}:`);
    console.log(`  longest task per paste (0: none of 50 ms or more): median ${f(median(longest))} ms, max ${f(Math.max(...longest))} ms`);
    console.log(`    runs: ${longest.map(f).join(', ')}; pastes with a long task: ${longest.filter((x) => x > 0).length} of ${rs.length}`);
    console.log(`  input event → last row: median ${f(median(rs.map((r) => r.lastRow)))} ms (runs: ${rs.map((r) => f(r.lastRow)).join(', ')})`);
    if (cpu) {
      const maxCpu = rs.map((r) => Math.max(0, ...r.tasks.map(([, c]) => c)));
      const longWall = rs.map((r) => r.tasks.filter(([w]) => w >= 50).map(([w, c]) => `${f(w)}/${f(c)}`).join(' ') || '-');
      console.log(`  most thread (CPU) time in one task: median ${f(median(maxCpu))} ms, max ${f(Math.max(...maxCpu))} ms`);
      console.log(`  traced tasks of 50 ms or more, wall/CPU ms: ${longWall.join('; ')}`);
      const top = rs.map((r) => [...r.tasks].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([w, c]) => `${f(w)}/${f(c)}`).join(' '));
      console.log(`  the three tasks with most CPU time per paste, wall/CPU ms: ${top.join('; ')}`);
      // The worker: its busy time (CPU) per paste and its longest task.
      const busy = rs.map((r) => (r.tasks.worker ?? []).reduce((a, [, , c]) => a + c, 0));
      const longestWorker = rs.map((r) => Math.max(0, ...(r.tasks.worker ?? []).map(([, w]) => w)));
      console.log(`  worker CPU time per paste (read, traced, ported, replied): median ${f(median(busy))} ms (runs: ${busy.map(f).join(', ')})`);
      console.log(`  longest worker task per paste: median ${f(median(longestWorker))} ms (runs: ${longestWorker.map(f).join(', ')})`);
    }
  }
}
