import { test, expect } from './fixtures/padlab';

test('a large layer shows its edges; the whole of it is painted on a canvas, with hover and stepping, and small ones return to SVG', async ({ padlab }) => {
  await padlab.page.goto('./?op=conv&fw=torch&in=256x256&k=3&s=2&p=1');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '128x128');
  const svg = padlab.page.getByTestId('grid-svg');
  // By default: the edges at a readable size, as SVG.
  const picture = padlab.page.getByTestId('picture');
  await expect(picture).toHaveAttribute('data-elided', 'true');
  expect(Number(await picture.getAttribute('data-cell-px'))).toBeGreaterThanOrEqual(12);
  await expect(svg).toHaveAttribute('data-renderer', 'svg');
  // The whole layer on request.
  await padlab.page.getByTestId('view-mode').selectOption('whole');
  await expect(svg).toHaveAttribute('data-renderer', 'canvas');
  await expect(padlab.page.getByTestId('canvas-note')).toContainText('82948 cells');
  await expect(svg.getByTestId('cell-input')).toHaveCount(0);

  // The canvas holds the picture: input colour at the first input cell, output colour on the right.
  const canvas = padlab.page.getByTestId('grid-canvas');
  await expect(canvas).toBeVisible();
  const pixels = await canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d')!;
    const at = (x: number, y: number) => Array.from(ctx.getImageData(x, y, 1, 1).data);
    return { input: at(10, 100), output: at(c.width - 10, 100), size: [c.width, c.height] };
  });
  expect(pixels.input).toEqual([158, 197, 254, 255]);
  expect(pixels.output).toEqual([167, 243, 208, 255]);

  // Hovering an output cell lights its 3x3 taps and itself.
  // (The mouse reaches only what is on the screen.)
  await svg.scrollIntoViewIfNeeded();
  const box = (await svg.boundingBox())!;
  await padlab.page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.3);
  await expect(padlab.page.locator('.overlay .hl')).toHaveCount(10);
  await padlab.page.mouse.move(box.x + 2, box.y + box.height * 0.5);
  await expect(padlab.page.locator('.overlay .hl').first()).toBeAttached();

  await padlab.page.getByTestId('step-forward').click();
  await expect(padlab.page.getByTestId('step-text')).toContainText('Window 2 of 16384');

  // Back under the SVG budget: one element per cell again.
  await padlab.set('input', '8x8');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '4x4');
  await expect(svg).toHaveAttribute('data-renderer', 'svg');
  await expect(svg.getByTestId('cell-input')).toHaveCount(64);
  await expect(canvas).toBeHidden();

  // A 1-D layer of 600,000 would need a canvas far wider than browsers allow: said, not drawn.
  await padlab.set('input', '600000');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '300000');
  await expect(padlab.page.getByTestId('grid')).toContainText('900002 cells: too many, or too wide, to draw whole here');
  await expect(svg).toBeHidden();
  // Its edges are drawn at once.
  await padlab.page.getByTestId('view-mode').selectOption('auto');
  await expect(svg).toBeVisible();
  await expect(picture).toHaveAttribute('data-elided', 'true');
});
