import { test, expect } from './fixtures/padlab';

// Each preset: the output size padlab reports, and a fact its generated code must show.
const PRESETS: [string, string, string, string][] = [
  ['seed-000', '100x20', 'torch', 'padding="same"'],
  ['seed-001', '1481', 'keras', 'Cropping1D((9, 5))'],
  ['seed-002', '30x30', 'torch', 'padding=(1, 1)'],
  ['seed-002-pool', '15x15', 'torch', 'MaxPool2d'],
  ['seed-003', '112x112', 'keras', 'ZeroPadding2D(((1, 1), (1, 1)))'],
  ['seed-004', '3x3', 'tf', 'tf.nn.conv2d'],
  ['resnet-stem', '112x112', 'torch', 'F.pad(x, (2, 3, 2, 3))'],
  ['same-3x3', '56x56', 'keras', 'padding="same"'],
  ['max-pool-2x2', '3x3', 'onnx', 'MaxPool'],
];

test('each preset shows its output size and code for every target', async ({ padlab }) => {
  await padlab.open();
  for (const [id, size, target, fact] of PRESETS) {
    await padlab.preset(id);
    await expect(padlab.outputSize, id).toHaveAttribute('data-value', size);
    await expect(await padlab.code(target), id).toContainText(fact);
    for (const other of ['torch', 'keras', 'tf']) {
      await expect(await padlab.code(other), `${id} ${other}`).toContainText('padlab:');
    }
  }
});
