import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1200, height: 900 } });
await p.goto(process.argv[2]);
await p.getByTestId('output-size').waitFor();
await p.waitForTimeout(300);
console.log(await p.getByTestId('grid-canvas').evaluate((c) => {
  const ctx = c.getContext('2d'); const px = (x, y) => Array.from(ctx.getImageData(x, y, 1, 1).data);
  return { w: c.width, h: c.height, cw: c.clientWidth, a: px(10, 60), b: px(11, 61), c: px(0, 0), d: px(400, 100), style: getComputedStyle(c).getPropertyValue('--c-input') };
}));
await b.close();
