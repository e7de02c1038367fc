# padlab-input: 3x21x21
# Keras refuses a stride with a dilation: its port zero-inserts the kernel.
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, stride=2, dilation=2, padding=2),
    nn.ReLU(),
    nn.Conv2d(8, 4, 3, stride=2, dilation=3),
)
