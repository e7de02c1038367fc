import { test, expect } from './fixtures/padlab';

test('everything is reachable and usable from the keyboard alone', async ({ padlab }) => {
  await padlab.open();
  const page = padlab.page;
  // The first stop is the selected view tab; the arrow keys switch views and back.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('view-layer')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('view-model')).toBeFocused();
  await expect(page.getByTestId('model-view')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('view-layer')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('model-view')).toBeHidden();
  // Tab on to the first preset (the other view tab is not a stop) and press Enter.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('preset-seed-000')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  // Tab on to the kernel field and type a new kernel.
  for (let i = 0; i < 20 && !(await page.getByTestId('kernel').evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(page.getByTestId('kernel')).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  await expect(page.getByTestId('formula-output').first()).toContainText('= 100');
  // The picture takes focus and steps with the arrow keys.
  await page.getByTestId('grid').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('step-text')).toContainText('Window 2 of 2000');
  // Focus is always visible.
  const outline = await page.getByTestId('grid').evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
});
