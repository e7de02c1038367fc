# padlab-input: 3x96x96
# padlab-model: model
# A convolutional encoder-decoder for 96x96 RGB images as image-restoration and
# colorization posts write it: an encoder of stride-2 Conv2d blocks made by a helper function,
# a decoder that doubles the size twice with nn.Upsample(scale_factor=2, mode='nearest') inside
# nn.Sequential blocks and once more in forward with
# F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=False), and a Sigmoid output.
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(in_ch, out_ch, stride=1):
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel_size=3, stride=stride, padding=1),
        nn.BatchNorm2d(out_ch),
        nn.LeakyReLU(0.1, inplace=True),
    )


class UpBlock(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.up = nn.Sequential(
            nn.Upsample(scale_factor=2, mode='nearest'),
            conv_block(in_ch, out_ch),
        )

    def forward(self, x):
        return self.up(x)


class ConvAutoencoder(nn.Module):
    def __init__(self, in_channels=3, base=32):
        super().__init__()
        self.encoder = nn.Sequential(
            conv_block(in_channels, base, stride=2),   # 48
            conv_block(base, base * 2, stride=2),      # 24
            conv_block(base * 2, base * 4, stride=2),  # 12
            conv_block(base * 4, base * 4),
        )
        self.decoder = nn.Sequential(
            UpBlock(base * 4, base * 2),               # 24
            UpBlock(base * 2, base),                   # 48
        )
        self.head = nn.Conv2d(base, in_channels, kernel_size=3, padding=1)

    def forward(self, x):
        z = self.encoder(x)
        y = self.decoder(z)
        y = F.interpolate(y, scale_factor=2, mode='bilinear', align_corners=False)  # 96
        return torch.sigmoid(self.head(y))


device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = ConvAutoencoder().to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
