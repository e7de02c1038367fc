import { test, expect } from './fixtures/padlab';

// The seeds at the sizes people ask about, on a desktop and a phone: the answer line is on
// the first screen, the picture is readable (cells of at least 12 CSS px) and its padding is
// drawn where the picture is. Screenshots go to e2e/screenshots/ to be looked at.
const seeds = ['seed-000', 'seed-001', 'seed-002', 'seed-002-pool', 'seed-003', 'seed-004'];
const screens = [
  { name: 'desktop', width: 1280, height: 720 },
  { name: 'phone', width: 390, height: 844 },
];

for (const screen of screens) {
  for (const seed of seeds) {
    test(`${seed} on a ${screen.name}: the answer above the fold, a readable picture`, async ({ padlab }) => {
      const page = padlab.page;
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await padlab.open();
      await padlab.preset(seed);
      await page.evaluate(() => window.scrollTo(0, 0));
      // The line to paste, on the first screen.
      const torch = page.getByTestId('answer-torch');
      await expect(torch.locator('code')).not.toBeEmpty();
      const box = (await torch.boundingBox())!;
      expect(box.y + box.height, 'answer-torch bottom').toBeLessThanOrEqual(screen.height);
      await expect(page.getByTestId('answer-keras')).toBeAttached();
      await expect(page.getByTestId('answer-tf')).toBeAttached();
      // The picture: readable cells, the padding drawn and on screen with it.
      const picture = page.getByTestId('picture');
      await picture.scrollIntoViewIfNeeded();
      const cell = Number(await picture.getAttribute('data-cell-px'));
      expect(cell, 'cell size in CSS px').toBeGreaterThanOrEqual(12);
      const svg = page.getByTestId('grid-svg');
      const width = (await svg.boundingBox())!.width;
      expect(width).toBeLessThanOrEqual(screen.width);
      const pads = svg.getByTestId('cell-pad');
      if ((await pads.count()) > 0) {
        await expect(pads.first()).toBeInViewport();
        await expect(pads.last()).toBeInViewport();
      }
      await page.screenshot({ path: `screenshots/${seed}-${screen.name}.png`, fullPage: false });
    });
  }
}

test('a 3,000-long 1-D input and 1000×1000 draw readable pictures at once', async ({ padlab }) => {
  const page = padlab.page;
  await page.goto('./?op=conv&fw=keras&in=3000&k=5&s=2&p=same');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '1500');
  const picture = page.getByTestId('picture');
  await expect(picture).toHaveAttribute('data-elided', 'true');
  expect(Number(await picture.getAttribute('data-cell-px'))).toBeGreaterThanOrEqual(12);
  // The odd pixel of strided 'same' (pads 1 and 2) is drawn at the end.
  await expect(page.getByTestId('pad-counts')).toContainText('padding left 1, right 2');
  await expect(page.getByTestId('grid-svg').getByTestId('cell-pad')).toHaveCount(3);
  await expect(page.getByTestId('code-loading')).toHaveCount(0);
  await page.goto('./?op=conv&fw=torch&in=1000x1000&k=3&p=1');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '1000x1000');
  await expect(picture).toHaveAttribute('data-elided', 'true');
  expect(Number(await picture.getAttribute('data-cell-px'))).toBeGreaterThanOrEqual(12);
  const cells = await page.getByTestId('grid-svg').locator('rect').count();
  expect(cells).toBeLessThan(5000);
  // Stepping to the last window brings it into the drawn part.
  await page.getByTestId('grid').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('step-text')).toContainText('Window 1000000 of 1000000');
  await expect(page.locator('.overlay .window')).toHaveCount(1);
});

test('the links that froze the tab draw, hover and step', async ({ padlab }) => {
  const page = padlab.page;
  for (const query of [
    'op=conv&fw=torch&in=1500x1500&k=1500',
    'op=conv&fw=torch&in=1x2x2&k=2000000000001x1x1&p=1000000000000x0x0',
    'op=max_pool&fw=keras&in=224x224&k=224',
  ]) {
    await page.goto(`./?${query}`);
    await expect(padlab.outputSize).toBeVisible();
    await expect(page.getByTestId('grid-svg')).toBeVisible();
    await page.getByTestId('grid-svg').hover();
    await expect(page.getByTestId('step-text')).toContainText('Window 1 of');
    // The worker has answered too (navigating away mid-download would cancel its request).
    await expect(page.getByTestId('code-loading')).toHaveCount(0);
  }
});
