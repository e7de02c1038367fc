import { test, expect } from './fixtures/padlab';

test('the plot shows output and pads against the input size, drawn by the worker', async ({ padlab }) => {
  // Keras 'same' with stride 2: the pads depend on the input size, so they zig-zag.
  await padlab.page.goto('./?op=conv&fw=keras&in=7&k=3&s=2&p=same');
  const summary = padlab.page.getByTestId('plot-summary');
  await expect(summary).toContainText('Input length 1 to 16: 16 accepted, output length 1 to 8');
  await expect(summary).toContainText('the pads change with the input size');
  const svg = padlab.page.getByTestId('plot-svg').locator('svg');
  await expect(svg).toBeVisible();
  await expect(svg.locator('text', { hasText: 'output length' })).toHaveCount(1);
  await expect(svg.locator('text', { hasText: 'pad before / after' })).toHaveCount(1);
  expect(await svg.locator('polyline').count()).toBeGreaterThanOrEqual(4);

  // Stride 1: 'same' pads no longer depend on the size.
  await padlab.set('stride', '1');
  await expect(summary).toContainText('the pads are the same for every size');

  // A refused layer gets the framework's reason instead of a plot.
  await padlab.page.goto('./?op=conv&fw=torch&in=8&k=3&s=2&p=same');
  await expect(padlab.page.getByTestId('plot')).toContainText('strided');
  await expect(padlab.page.getByTestId('plot-svg')).toHaveCount(0);
});

test('the plot sweeps the dimension that matters, named as the page names it, or the one picked', async ({ padlab }) => {
  // Seed 000: the height is padded (1, 2), the width not at all.
  await padlab.page.goto('./?op=conv&fw=keras&in=100x20&k=4x1&p=same');
  const summary = padlab.page.getByTestId('plot-summary');
  await expect(summary).toContainText('Input height 68 to 131');
  const svg = padlab.page.getByTestId('plot-svg').locator('svg');
  await expect(svg.locator('text', { hasText: 'output height' })).toHaveCount(1);
  await padlab.page.getByTestId('plot-sweep').selectOption({ label: 'width' });
  await expect(summary).toContainText('Input width 1 to 40');
  await expect(svg.locator('text', { hasText: 'input width' }).first()).toBeVisible();
});
