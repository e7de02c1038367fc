# padlab-refuses: Softmax() without dim: torch picks the axis from the input's rank (a deprecated implicit choice); give dim
# padlab-input: 1x28x28
# padlab-model: Classifier()
# An MNIST classifier as older tutorials write its head: `nn.Softmax()` without `dim`. Torch
# warns and takes dim 1 for this rank-2 input. padlab refuses the code (give dim), but reads the
# printout of the model (printed_softmax_no_dim.txt), where `Softmax(dim=None)` stands for the
# same layer: its row states the dim torch took.
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 5),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 5),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.fc = nn.Linear(32 * 4 * 4, 10)
        self.softmax = nn.Softmax()

    def forward(self, x):
        x = self.features(x)
        x = x.view(x.size(0), -1)
        return self.softmax(self.fc(x))
