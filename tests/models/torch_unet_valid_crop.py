# padlab-input: 1x252x252
# padlab-model: UNet(in_channels=1, num_classes=2)
# The U-Net of Ronneberger et al. (2015) as its paper draws it: unpadded ("valid") 3x3
# convolutions, so each double conv loses 4 pixels, 2x2 max pooling, 2x2 up-convolutions
# (ConvTranspose2d stride 2), and skips center-cropped to the decoder's size by slicing
# (enc[:, :, top:top + h, left:left + w]) before torch.cat. Written as many paper
# reimplementations do, with small helper functions returning nn.Sequential and the encoder
# and decoder in nn.ModuleList comprehensions. 252x252 in gives 68x68 out.
import torch
import torch.nn as nn


def double_conv(in_c, out_c):
    return nn.Sequential(
        nn.Conv2d(in_c, out_c, kernel_size=3),
        nn.ReLU(inplace=True),
        nn.Conv2d(out_c, out_c, kernel_size=3),
        nn.ReLU(inplace=True),
    )


def center_crop(enc, target):
    """Cuts the middle of enc to target's height and width."""
    _, _, h, w = target.shape
    top = (enc.shape[2] - h) // 2
    left = (enc.shape[3] - w) // 2
    return enc[:, :, top:top + h, left:left + w]


class UNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=2, widths=(64, 128, 256, 512, 1024)):
        super().__init__()
        chans = [in_channels] + list(widths)
        self.encoder = nn.ModuleList([double_conv(chans[i], chans[i + 1]) for i in range(len(widths))])
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        rev = list(widths)[::-1]
        self.upconvs = nn.ModuleList(
            [nn.ConvTranspose2d(rev[i], rev[i + 1], kernel_size=2, stride=2) for i in range(len(rev) - 1)]
        )
        self.decoder = nn.ModuleList([double_conv(rev[i], rev[i + 1]) for i in range(len(rev) - 1)])
        self.out = nn.Conv2d(widths[0], num_classes, kernel_size=1)

    def forward(self, x):
        skips = []
        for i, enc in enumerate(self.encoder):
            x = enc(x)
            if i < len(self.encoder) - 1:
                skips.append(x)
                x = self.pool(x)
        for up, dec, skip in zip(self.upconvs, self.decoder, reversed(skips)):
            x = up(x)
            x = torch.cat([center_crop(skip, x), x], dim=1)
            x = dec(x)
        return self.out(x)


if __name__ == "__main__":
    image = torch.rand((1, 1, 572, 572))
    model = UNet()
    print(model(image).shape)  # torch.Size([1, 2, 388, 388])
