# padlab-input: 32x100x20
# Seed 000: the answer torch has since 1.9: padding='same' at stride 1, even with a (4, 1) kernel.
model = nn.Sequential(
    nn.Conv2d(32, 32, (4, 1), padding='same'),
    nn.BatchNorm2d(32),
    nn.Conv2d(32, 32, (4, 1), padding=(2, 0)),
)
