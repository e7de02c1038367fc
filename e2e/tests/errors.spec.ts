import { test, expect } from './fixtures/padlab';

test("a refused configuration shows the framework's reason, and recovers", async ({ padlab }) => {
  await padlab.open();
  await padlab.set('padding', 'same'); // torch refuses 'same' with stride 2
  await expect(padlab.error).toContainText("padding='same' is not supported for strided convolutions");
  await expect(padlab.outputSize).toHaveCount(0);
  await padlab.chooseFramework('keras'); // Keras pads 6 -> 3 with the extra pixel after
  await expect(padlab.error).toHaveCount(0);
  await expect(padlab.outputSize).toHaveAttribute('data-value', '3x3');
  await padlab.set('kernel', 'abc');
  await expect(padlab.error).toContainText('kernel takes whole numbers');
  await expect(padlab.field('kernel')).toHaveAttribute('aria-invalid', 'true');
});

test('the last valid picture stays on screen while a field is being fixed', async ({ padlab }) => {
  await padlab.open();
  const grid = padlab.page.getByTestId('grid-svg');
  await expect(grid.getByTestId('cell-output')).toHaveCount(9);
  await padlab.set('kernel', '');
  await expect(padlab.error).toBeVisible();
  await expect(padlab.page.getByTestId('stale-note')).toBeVisible();
  await expect(grid.getByTestId('cell-output')).toHaveCount(9);
  await padlab.set('kernel', '3');
  await expect(padlab.page.getByTestId('stale-note')).toBeHidden();
  await expect(padlab.outputSize).toHaveAttribute('data-value', '4x4');
});
