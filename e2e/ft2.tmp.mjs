import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
for (let i = 0; i < 5; i++) {
  const c = await b.newContext(); const p = await c.newPage();
  await p.addInitScript(() => {
    new MutationObserver(() => { if (!window.__fg && document.querySelector('[data-testid="cell-input"]')) window.__fg = performance.now(); }).observe(document, { childList: true, subtree: true });
  });
  await p.goto('http://127.0.0.1:4176/');
  await p.waitForFunction(() => window.__fg);
  const r = await p.evaluate(() => { const n = performance.getEntriesByType('navigation')[0]; return { fg: window.__fg, reqStart: n.requestStart, respStart: n.responseStart, respEnd: n.responseEnd, domInteractive: n.domInteractive, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime }; });
  console.log(JSON.stringify(r, (k, v) => typeof v === 'number' ? Math.round(v * 10) / 10 : v));
  await c.close();
}
await b.close();
