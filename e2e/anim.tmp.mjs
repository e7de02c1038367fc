import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:4175/';
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]; };
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-dev-shm-usage'] });
const page = await (await b.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
for (const size of (process.argv[2] ?? '64,96,128').split(',')) {
  const t0 = Date.now();
  await page.goto(`${base}?op=conv&fw=torch&in=${size}x${size}&k=3&p=1`);
  await page.getByTestId('output-size').waitFor();
  if (!(await page.getByTestId('grid-svg').isVisible())) { console.log(size, 'not drawn'); continue; }
  const load = Date.now() - t0;
  await page.getByTestId('speed').selectOption('16');
  await page.getByTestId('play').click();
  const frames = await page.evaluate((s) => new Promise((done) => {
    const out = []; let last = performance.now(); const end = last + s * 1000;
    const tick = (t) => { out.push(t - last); last = t; if (t < end) requestAnimationFrame(tick); else done(out); };
    requestAnimationFrame(tick);
  }), 2);
  await page.getByTestId('play').click();
  const body = frames.slice(2);
  console.log(size, 'load ms', load, 'fps', (1000 / pct(body, 0.5)).toFixed(0), 'p95', pct(body, 0.95).toFixed(1), 'max', Math.max(...body).toFixed(1));
}
await b.close();
