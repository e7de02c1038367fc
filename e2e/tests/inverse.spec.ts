import { test, expect } from './fixtures/padlab';

test('asking for an output size lists the padding per framework, or why none', async ({ padlab }) => {
  await padlab.open();
  await padlab.preset('seed-000'); // Keras (4, 1) 'same' on 100x20
  await padlab.set('want', '100x20');
  const list = padlab.page.getByTestId('inverse');
  await expect(list.getByRole('listitem').filter({ hasText: 'Keras' })).toContainText('padding same');
  await expect(list.getByRole('listitem').filter({ hasText: 'PyTorch' })).toContainText('padding same');
  await expect(list.getByRole('listitem').filter({ hasText: 'TensorFlow' })).toContainText('padding 1,2x0,0');
  // Each way opens that layer.
  await list.getByRole('listitem').filter({ hasText: 'TensorFlow' }).getByRole('link', { name: 'padding 1,2x0,0' }).click();
  await expect(padlab.field('framework')).toHaveValue('tf');
  await expect(padlab.field('padding')).toHaveValue('1,2x0,0');
  await expect(padlab.outputSize).toHaveAttribute('data-value', '100x20');
  await padlab.set('want', '1x1');
  await expect(list.getByRole('listitem').filter({ hasText: 'Keras' })).toContainText('padding only makes it larger');
});
