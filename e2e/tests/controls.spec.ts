import { test, expect } from './fixtures/padlab';

test('changing a control changes the output size', async ({ padlab }) => {
  await padlab.open();
  await padlab.set('input', '100x20');
  await padlab.set('kernel', '1');
  await padlab.set('stride', '1');
  await padlab.set('padding', '0');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  await padlab.set('stride', '3');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '34x7');
});
