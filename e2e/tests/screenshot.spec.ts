import { test, expect } from './fixtures/padlab';
import { statSync } from 'node:fs';

// The main view as a person sees it, written to e2e/screenshots/ (checked in and looked at).
// What the screenshot must show is asserted first: the picture with its padding and the
// hovered links in view, the answer, and the code from the worker.
test('a screenshot of the main view', async ({ padlab }) => {
  const page = padlab.page;
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.goto('./?op=conv&fw=keras&in=12x12&k=3&s=2&p=same');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '6x6');
  await expect(page.getByTestId('code-torch')).toContainText('nn.Conv2d'); // from the worker
  await page.getByTestId('step-forward').click();
  const grid = page.getByTestId('grid-svg');
  await grid.getByTestId('cell-output').nth(8).hover();
  await expect(page.locator('g.overlay rect.hl').first()).toBeAttached();
  await expect(grid).toBeInViewport();
  await expect(grid.getByTestId('cell-pad').last()).toBeInViewport();
  const box = await grid.boundingBox();
  expect(box?.width ?? 0, 'the picture is drawn at a readable size').toBeGreaterThan(200);
  const dir = process.env.PADLAB_BASE ? 'test-results' : 'screenshots';
  const path = `${dir}/main-view.png`;
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size, 'a real screenshot, not an empty page').toBeGreaterThan(20_000);
});
