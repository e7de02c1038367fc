# padlab-input: 1x24x24
# A residual denoiser in the style of image-restoration repositories: the network predicts the
# noise, the output is the input minus it, clamped to the image range; a bounded activation
# (nn.Hardtanh with its own bounds) inside. Architecture: DnCNN-like (Zhang et al.), shortened.
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, channels=1, features=16, depth=4):
        super().__init__()
        layers = [nn.Conv2d(channels, features, 3, padding=1), nn.Hardtanh(-0.5, 0.75)]
        for _ in range(depth - 2):
            layers += [nn.Conv2d(features, features, 3, padding=1, bias=False),
                       nn.BatchNorm2d(features), nn.ReLU(inplace=True)]
        layers.append(nn.Conv2d(features, channels, 3, padding=1))
        self.body = nn.Sequential(*layers)

    def forward(self, noisy):
        noise = self.body(noisy)
        return torch.clamp(noisy - noise, 0., 1.)


model = Denoiser()
