import { test, expect } from './fixtures/padlab';

test('the formula shows the arithmetic with the numbers, and follows the controls', async ({ padlab }) => {
  await padlab.open();
  const output = padlab.page.getByTestId('formula-output');
  await expect(output.first()).toHaveText('⌊(6 + 2 + 2 − 5) / 2⌋ + 1 = 3');
  await padlab.set('padding', '1');
  await expect(output.first()).toHaveText('⌊(6 + 1 + 1 − 5) / 2⌋ + 1 = 2');
  await expect(padlab.page).toHaveURL(/p=1/);
});
