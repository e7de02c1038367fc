# padlab-input: 3x64x64
# padlab-model: netD
# The DCGAN discriminator as the pytorch/examples dcgan/main.py writes it: settings from a dict
# of options (nc, ndf) turned into ints, a Sequential of Conv2d(.., 4, 2, 1, bias=False) with
# LeakyReLU(0.2, inplace=True) and BatchNorm2d, a final 4x4 valid conv and Sigmoid, and the
# output flattened with output.view(-1, 1).squeeze(1).
import torch
import torch.nn as nn
import torch.nn.parallel

opt = {"nc": 3, "ndf": 64, "ngpu": 1, "imageSize": 64}
ngpu = int(opt["ngpu"])
ndf = int(opt["ndf"])
nc = int(opt["nc"])


class Discriminator(nn.Module):
    def __init__(self, ngpu):
        super(Discriminator, self).__init__()
        self.ngpu = ngpu
        self.main = nn.Sequential(
            # a 3-channel 64x64 image comes in
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            # -> ndf maps of 32 x 32
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            # -> ndf*2 maps of 16 x 16
            nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 4),
            nn.LeakyReLU(0.2, inplace=True),
            # -> ndf*4 maps of 8 x 8
            nn.Conv2d(ndf * 4, ndf * 8, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 8),
            nn.LeakyReLU(0.2, inplace=True),
            # -> ndf*8 maps of 4 x 4
            nn.Conv2d(ndf * 8, 1, 4, 1, 0, bias=False),
            nn.Sigmoid()
        )

    def forward(self, input):
        if input.is_cuda and self.ngpu > 1:
            output = nn.parallel.data_parallel(self.main, input, range(self.ngpu))
        else:
            output = self.main(input)

        return output.view(-1, 1).squeeze(1)


netD = Discriminator(ngpu)
criterion = nn.BCELoss()
