// A 100 MB model file read in the page (issue 18): Playwright + Debian Chromium against the
// built site. Each run opens the page in a fresh context, opens the Whole model view, chooses
// the file, and times the choice until the table's first row is in the page; the Long Tasks API
// records main-thread tasks of 50 ms and more from the choice on. (Memory is measured natively by
// scripts/bench-files.sh: the worker holds the file once, read into one buffer of its size.)
// Medians over PADLAB_RUNS runs; reports, never assertions. Run it through scripts/bench-files.sh.
import { chromium } from '@playwright/test';
import { statSync } from 'node:fs';

const base = process.env.PADLAB_URL ?? 'http://127.0.0.1:4175/';
const file = process.env.PADLAB_FILE;
const runs = Number(process.env.PADLAB_RUNS ?? 5);
const args = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args });
const size = statSync(file).size;
const times = [];
const longest = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(base);
  await page.getByTestId('view-model').click();
  await page.getByTestId('model-drop').waitFor();
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); })
      .observe({ type: 'longtask' });
    window.__chosen = 0;
    document.getElementById('model-file').addEventListener('change', () => { window.__chosen = performance.now(); });
  });
  await page.getByTestId('model-file').setInputFiles(file);
  await page.getByTestId('model-row').first().waitFor({ timeout: 60_000 });
  const took = await page.evaluate(() => performance.now() - window.__chosen);
  times.push(took);
  longest.push(Math.max(0, ...(await page.evaluate(() => window.__long))));
  await context.close();
}
await browser.close();
console.log(`file: ${(size / 1e6).toFixed(1)} MB, ${runs} runs`);
console.log(`chosen → first table row, median: ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`);
console.log(`longest main-thread task while it is read, median: ${median(longest).toFixed(0)} ms (0: none of 50 ms or more)`);
