# padlab-input: 2x17x17
from torch.nn import *

model = Sequential(
    Conv2d(2, 4, 3, stride=2, padding=1), ReLU(),
    Conv2d(4, 4, 2, stride=2), Tanh(),
    Flatten(), Linear(4 * 4 * 4, 3), Sigmoid(),
)
