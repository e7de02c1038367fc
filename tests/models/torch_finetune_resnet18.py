# padlab-input: 3x224x224
# Transfer learning as the PyTorch fine-tuning tutorials write it: a torchvision ResNet-18 asked
# for its ImageNet weights, every parameter frozen in a loop, the classifier head replaced by a
# two-class Linear sized from `fc.in_features`; a loss and an optimizer over the new head
# follow (they are not the model). padlab reads the architecture from its own copy of
# torchvision's; nothing is downloaded.
import torch
import torch.nn as nn
import torch.optim as optim
from torchvision import models

model_ft = models.resnet18(weights="IMAGENET1K_V1")
for param in model_ft.parameters():
    param.requires_grad = False

num_ftrs = model_ft.fc.in_features
model_ft.fc = nn.Linear(num_ftrs, 2)

criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model_ft.fc.parameters(), lr=0.001, momentum=0.9)
