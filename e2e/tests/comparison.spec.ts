import { test, expect } from './fixtures/padlab';

test('the comparison shows each framework, the odd pixel, torch refusing, and input dependence', async ({ padlab }) => {
  await padlab.open();
  await padlab.preset('resnet-stem');
  const table = padlab.page.getByTestId('comparison');
  await expect(table.getByRole('row', { name: /TF \/ Keras 'same'/ })).toContainText('height: (2, 3) — odd pixel after');
  await expect(table.getByRole('row', { name: /TF \/ Keras 'same'/ })).toContainText('input-dependent');
  await expect(table.getByRole('row', { name: /PyTorch 'same'/ })).toContainText('not supported for strided convolutions');
  await expect(table.getByRole('row', { name: /ONNX SAME_LOWER/ })).toContainText('(3, 2) — odd pixel before');
  // Against the layer on screen, in the table: torch padding=3 is the same size, shifted.
  await expect(table.getByRole('row', { name: /PyTorch padding=3, 3/ })).toContainText('same size, shifted one pixel');
  await expect(table.getByRole('row', { name: /TF \/ Keras 'same'/ })).toContainText('same numbers');
});

test('a transposed layer is compared too: the naive torch port is shifted one pixel', async ({ padlab }) => {
  await padlab.page.goto('./?op=conv_transpose&fw=keras&in=4&k=3&s=2&p=same');
  const table = padlab.page.getByTestId('comparison');
  const naive = table.getByRole('row', { name: /PyTorch padding=1, output_padding=1/ });
  await expect(naive).toContainText('8');
  await expect(naive).toContainText('same size, shifted one pixel');
});
