# padlab-input: 3x20x18
model = nn.Sequential(
    nn.ReflectionPad2d(2),
    nn.Conv2d(3, 8, 5),
    nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1, padding_mode='reflect'),
    nn.Conv2d(8, 4, 3, padding=1, padding_mode='replicate'),
    nn.Conv2d(4, 4, 3, padding=1, padding_mode='circular'),
)
