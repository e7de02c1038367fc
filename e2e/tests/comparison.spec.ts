import { test, expect } from './fixtures/padlab';

test('the comparison shows each framework, the odd pixel, torch refusing, and input dependence', async ({ padlab }) => {
  await padlab.open();
  await padlab.preset('resnet-stem');
  const table = padlab.page.getByTestId('comparison');
  await expect(table.getByRole('row', { name: /TF \/ Keras 'same'/ })).toContainText('height: (2, 3) — odd pixel after');
  await expect(table.getByRole('row', { name: /TF \/ Keras 'same'/ })).toContainText('input-dependent');
  await expect(table.getByRole('row', { name: /PyTorch 'same'/ })).toContainText('not supported for strided convolutions');
  await expect(table.getByRole('row', { name: /ONNX SAME_LOWER/ })).toContainText('(3, 2) — odd pixel before');
});
