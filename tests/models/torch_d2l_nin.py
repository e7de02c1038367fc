# padlab-input: 1x224x224
# padlab-model: net
# Network in Network (Lin et al.) in the style of the "Dive into Deep Learning" book: a
# nin_block(in_channels, out_channels, kernel_size, strides, padding) function returning an
# nn.Sequential of one conv and two 1x1 convs with ReLUs, the whole net one top-level
# nn.Sequential of blocks, MaxPool2d(3, stride=2), Dropout(0.5), a last block with 10 output
# channels, nn.AdaptiveAvgPool2d((1, 1)) and nn.Flatten(); the book's shape-printing loop over
# net follows (guarded), on Fashion-MNIST resized to 224x224.
import torch
from torch import nn


def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding),
        nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU())


net = nn.Sequential(
    nin_block(1, 96, kernel_size=11, strides=4, padding=0),
    nn.MaxPool2d(3, stride=2),
    nin_block(96, 256, kernel_size=5, strides=1, padding=2),
    nn.MaxPool2d(3, stride=2),
    nin_block(256, 384, kernel_size=3, strides=1, padding=1),
    nn.MaxPool2d(3, stride=2),
    nn.Dropout(0.5),
    # ten classes: the last block has ten channels
    nin_block(384, 10, kernel_size=3, strides=1, padding=1),
    nn.AdaptiveAvgPool2d((1, 1)),
    # (batch, 10, 1, 1) -> (batch, 10)
    nn.Flatten())

if __name__ == "__main__":
    X = torch.rand(size=(1, 1, 224, 224))
    for layer in net:
        X = layer(X)
        print(layer.__class__.__name__, 'output shape:\t', X.shape)
