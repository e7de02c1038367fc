# padlab-input: 3x224x224
# padlab-model: alexnet()
# AlexNet as torchvision defines it (the one-GPU variant of Krizhevsky et al.): features of
# five convolutions (11x11 stride 4 padding 2, 5x5 padding 2, three 3x3 padding 1) and three
# MaxPool2d(kernel_size=3, stride=2), nn.AdaptiveAvgPool2d((6, 6)), torch.flatten(x, 1), and a
# classifier of Dropout / Linear(256 * 6 * 6, 4096) / ReLU twice, then Linear(4096, num_classes).
# Written with type hints, a dropout argument and an alexnet(**kwargs) factory.
from typing import Any

import torch
import torch.nn as nn

__all__ = ["AlexNet", "alexnet"]


class AlexNet(nn.Module):
    def __init__(self, num_classes: int = 1000, dropout: float = 0.5) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, kernel_size=11, stride=4, padding=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(64, 192, kernel_size=5, padding=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(192, 384, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(384, 256, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(256, 256, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
        )
        self.avgpool = nn.AdaptiveAvgPool2d((6, 6))
        self.classifier = nn.Sequential(
            nn.Dropout(p=dropout),
            nn.Linear(256 * 6 * 6, 4096),
            nn.ReLU(inplace=True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, 4096),
            nn.ReLU(inplace=True),
            nn.Linear(4096, num_classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        x = self.classifier(x)
        return x


def alexnet(**kwargs: Any) -> AlexNet:
    """AlexNet from "One weird trick for parallelizing convolutional neural networks"."""
    model = AlexNet(**kwargs)
    return model
