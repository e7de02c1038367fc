# padlab-input: 8x5x6
model = nn.Sequential(
    nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1),
    nn.ConvTranspose2d(4, 2, 5, stride=3, padding=4, output_padding=2),
    nn.ConvTranspose2d(2, 2, 3, stride=1, padding=2, dilation=2),
    nn.ConvTranspose2d(2, 1, (2, 4), stride=(2, 3), padding=(0, 1)),
)
