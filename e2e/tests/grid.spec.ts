import { test, expect } from './fixtures/padlab';

test('the grid draws input, padding and output cells for the layer', async ({ padlab }) => {
  await padlab.open();
  const grid = padlab.page.getByTestId('grid-svg');
  await expect(grid.getByTestId('cell-input')).toHaveCount(36);
  await expect(grid.getByTestId('cell-pad')).toHaveCount(64);
  await expect(grid.getByTestId('cell-output')).toHaveCount(9);
  await padlab.preset('seed-000'); // 100x20 'same' with a 4x1 kernel: 3 padding rows
  // 103 rows do not fit at a readable size: the edges are drawn, both padding rows at the
  // top and the two at the bottom among them, and the middle rows are counted in a gap.
  await expect(padlab.page.getByTestId('picture')).toHaveAttribute('data-elided', 'true');
  await expect(grid.getByTestId('cell-pad')).toHaveCount(60);
  const inputs = await grid.getByTestId('cell-input').count();
  expect(inputs).toBeGreaterThan(200);
  expect(inputs).toBeLessThan(2000);
  await expect(grid.locator('.gap-label').first()).toContainText('rows');
  // The whole layer on request: every cell.
  await padlab.page.getByTestId('view-mode').selectOption('whole');
  await expect(grid.getByTestId('cell-input')).toHaveCount(2000);
  await expect(grid.getByTestId('cell-output')).toHaveCount(2000);
});

test('stepping moves the window; hovering an output lights its taps', async ({ padlab }) => {
  await padlab.open();
  const text = padlab.page.getByTestId('step-text');
  await expect(text).toContainText('Window 1 of 9 (output 0, 0)');
  // The stride step: the next window (dashed) sits one stride (2 cells of 28) to the right.
  const window = padlab.page.locator('.overlay .window');
  const next = padlab.page.locator('.overlay .next-window');
  await expect(window).toHaveAttribute('x', '0');
  await expect(next).toHaveAttribute('x', '56');
  await padlab.page.getByTestId('step-forward').click();
  await expect(text).toContainText('Window 2 of 9 (output 0, 1)');
  await expect(window).toHaveAttribute('x', '56');
  await expect(next).toHaveAttribute('x', '112');
  await padlab.page.getByTestId('step-back').click();
  await padlab.page.getByTestId('step-back').click();
  await expect(text).toContainText('Window 9 of 9 (output 2, 2)');
  await expect(next).toHaveCount(0); // the last window of its row has no next one
  await padlab.page.getByTestId('grid-svg').getByTestId('cell-output').nth(4).hover();
  // 5x5 taps plus the hovered output itself.
  await expect(padlab.page.locator('.overlay .hl')).toHaveCount(26);
});

test('the animation plays and is driven from the keyboard', async ({ padlab }) => {
  await padlab.open();
  const text = padlab.page.getByTestId('step-text');
  await padlab.page.getByTestId('speed').selectOption('16');
  await expect(text).toHaveAttribute('aria-live', 'polite');
  await padlab.page.getByTestId('play').click();
  await expect(text).not.toContainText('Window 1 of 9');
  await expect(text).toHaveAttribute('aria-live', 'off'); // no announcement flood while playing
  await padlab.page.getByTestId('play').click();
  await expect(text).toHaveAttribute('aria-live', 'polite');
  await padlab.page.getByTestId('grid').focus();
  await padlab.page.keyboard.press('Home');
  await expect(text).toContainText('Window 1 of 9');
  await padlab.page.keyboard.press('ArrowRight');
  await padlab.page.keyboard.press('ArrowRight');
  await expect(text).toContainText('Window 3 of 9');
  await padlab.page.keyboard.press(' ');
  await expect(padlab.page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await padlab.page.keyboard.press(' ');
  await expect(padlab.page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
});

test('the grid states the padding on each side', async ({ padlab }) => {
  await padlab.open();
  await padlab.preset('seed-000');
  await expect(padlab.page.getByTestId('pad-counts')).toContainText('padding top 1, bottom 2, left 0, right 0');
});

test('a 3-D layer is shown one depth slice at a time', async ({ padlab }) => {
  await padlab.page.goto('./?op=conv&fw=torch&in=3x4x4&k=3&p=1');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '3x4x4');
  const grid = padlab.page.getByTestId('grid-svg');
  const slice = padlab.page.getByTestId('depth-slice');
  await expect(slice).toHaveValue('1'); // the first input slice
  await expect(grid.getByTestId('cell-input')).toHaveCount(16);
  await slice.fill('0'); // the padding slice
  await expect(grid.getByTestId('cell-input')).toHaveCount(0);
  await expect(padlab.page.getByText(/Depth slice 0 of 5 \(padding; the current window reads it\)/)).toBeVisible();
});

test('the values mode writes the numbers: zeros in the padding, −∞ for a max pool, one output spelled out', async ({ padlab }) => {
  await padlab.open(); // seed 004: 6x6, kernel 5, stride 2, padding 2
  await padlab.page.getByTestId('values').check();
  const values = padlab.page.locator('.values text');
  // 10x10 padded input and 3x3 output, every cell numbered, the cells big enough to read.
  await expect(values).toHaveCount(109);
  expect(Number(await padlab.page.getByTestId('picture').getAttribute('data-cell-px'))).toBeGreaterThanOrEqual(24);
  await expect(values.first()).toHaveText('0');
  const sum = padlab.page.getByTestId('values-sum');
  await expect(sum).toContainText('Output (0, 0) (input value · weight):');
  await expect(sum).toContainText('16 taps read zeros');
  await padlab.page.goto('./?op=max_pool&fw=torch&in=7&k=3&s=2&p=1');
  await padlab.page.getByTestId('values').check();
  await expect(values.first()).toHaveText('−∞');
  await expect(sum).toContainText('max(−∞,');
});
