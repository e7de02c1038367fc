# padlab-input: 6x256x256
# padlab-model: NLayerDiscriminator(6, ndf=64, n_layers=3)
# The 70x70 PatchGAN discriminator of pix2pix (NLayerDiscriminator) in the style of the
# pytorch-CycleGAN-and-pix2pix repository: kw = 4, padw = 1, a `sequence` list grown with
# += in a for loop where nf_mult = min(2 ** n, 8), one more stride-1 layer, and a 1-channel
# stride-1 output conv; run on a 6-channel input (the condition image and the output
# concatenated), a 256x256 pair gives a 30x30 grid of patch scores.
import functools

import torch.nn as nn


class NLayerDiscriminator(nn.Module):
    """A PatchGAN discriminator: every output pixel judges one patch of the input."""

    def __init__(self, input_nc, ndf=64, n_layers=3, norm_layer=nn.BatchNorm2d):
        super(NLayerDiscriminator, self).__init__()
        if type(norm_layer) == functools.partial:  # BatchNorm2d carries its own affine bias
            use_bias = norm_layer.func == nn.InstanceNorm2d
        else:
            use_bias = norm_layer == nn.InstanceNorm2d

        kw = 4
        padw = 1
        sequence = [nn.Conv2d(input_nc, ndf, kernel_size=kw, stride=2, padding=padw), nn.LeakyReLU(0.2, True)]
        nf_mult = 1
        nf_mult_prev = 1
        for n in range(1, n_layers):  # widen the filters step by step
            nf_mult_prev = nf_mult
            nf_mult = min(2 ** n, 8)
            sequence += [
                nn.Conv2d(ndf * nf_mult_prev, ndf * nf_mult, kernel_size=kw, stride=2, padding=padw, bias=use_bias),
                norm_layer(ndf * nf_mult),
                nn.LeakyReLU(0.2, True)
            ]

        nf_mult_prev = nf_mult
        nf_mult = min(2 ** n_layers, 8)
        sequence += [
            nn.Conv2d(ndf * nf_mult_prev, ndf * nf_mult, kernel_size=kw, stride=1, padding=padw, bias=use_bias),
            norm_layer(ndf * nf_mult),
            nn.LeakyReLU(0.2, True)
        ]

        sequence += [nn.Conv2d(ndf * nf_mult, 1, kernel_size=kw, stride=1, padding=padw)]  # one score per patch
        self.model = nn.Sequential(*sequence)

    def forward(self, input):
        return self.model(input)
