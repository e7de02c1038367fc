import { chromium } from '@playwright/test';
const n = Number(process.env.N ?? 50000);
const model = 'import torch.nn as nn\nmodel = nn.Sequential(\n    nn.Conv2d(3, 8, 3, padding=1),\n'
    + Array.from({ length: n - 1 }, (_, k) => (k % 2 ? '    nn.ReLU(),' : '    nn.BatchNorm2d(8),')).join('\n') + '\n)\n';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (let run = 0; run < Number(process.env.RUNS ?? 3); run++) {
const page = await browser.newPage();
await page.goto('http://127.0.0.1:4175/');
await page.getByTestId('view-model').click();
await page.getByTestId('model-input').fill('3x8x8');
await page.waitForTimeout(2500);
await browser.startTracing(page, { categories: ['toplevel', '__metadata'] });
await page.evaluate((value) => { const el = document.getElementById('model-source'); el.value = value; el.dispatchEvent(new Event('input', { bubbles: true })); }, model);
await page.waitForFunction(() => document.getElementById('model-code-text-torch')?.textContent.length > 0, null, { timeout: 120000, polling: 100 });
await page.waitForTimeout(Number(process.env.AFTER ?? 3000));
const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
const workers = new Set(traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && /Worker/.test(e.args.name ?? '')).map((e) => `${e.pid}:${e.tid}`));
const wt = traceEvents.filter((e) => e.ph === 'X' && /RunTask/.test(e.name) && workers.has(`${e.pid}:${e.tid}`)).map((e) => [e.dur / 1000, (e.tdur ?? 0) / 1000]).sort((a, b) => b[0] - a[0]);
console.log(`run ${run}: worker tasks ${wt.length}, longest (wall/cpu ms): ${wt.slice(0, 3).map(([w, c]) => `${w.toFixed(0)}/${c.toFixed(0)}`).join(' ')}, total cpu ${wt.reduce((a, [, c]) => a + c, 0).toFixed(0)} ms`);
await page.close();
}
await browser.close();
