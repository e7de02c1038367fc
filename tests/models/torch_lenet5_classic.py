# padlab-input: 1x32x32
# padlab-model: LeNet5(n_classes=10)
# LeNet-5 as LeCun et al. (1998) describe it, in the style of PyTorch reimplementation blog
# posts: a feature_extractor nn.Sequential of Conv2d(5) / Tanh / AvgPool2d(2) twice and a 5x5
# Conv2d to 120 maps of 1x1 (C5), a classifier nn.Sequential of Linear(120, 84) / Tanh /
# Linear(84, n_classes), torch.flatten(x, 1), and forward returning (logits, probs) with
# F.softmax(logits, dim=1).
import numpy as np
from datetime import datetime

import torch
import torch.nn as nn
import torch.nn.functional as F

# parameters
RANDOM_SEED = 42
LEARNING_RATE = 0.001
BATCH_SIZE = 32
N_EPOCHS = 15

IMG_SIZE = 32
N_CLASSES = 10


class LeNet5(nn.Module):

    def __init__(self, n_classes):
        super(LeNet5, self).__init__()

        self.feature_extractor = nn.Sequential(
            nn.Conv2d(in_channels=1, out_channels=6, kernel_size=5, stride=1),
            nn.Tanh(),
            nn.AvgPool2d(kernel_size=2),
            nn.Conv2d(in_channels=6, out_channels=16, kernel_size=5, stride=1),
            nn.Tanh(),
            nn.AvgPool2d(kernel_size=2),
            nn.Conv2d(in_channels=16, out_channels=120, kernel_size=5, stride=1),
            nn.Tanh()
        )

        self.classifier = nn.Sequential(
            nn.Linear(in_features=120, out_features=84),
            nn.Tanh(),
            nn.Linear(in_features=84, out_features=n_classes),
        )

    def forward(self, x):
        x = self.feature_extractor(x)
        x = torch.flatten(x, 1)
        logits = self.classifier(x)
        probs = F.softmax(logits, dim=1)
        return logits, probs


torch.manual_seed(RANDOM_SEED)
model = LeNet5(N_CLASSES)
optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
criterion = nn.CrossEntropyLoss()
