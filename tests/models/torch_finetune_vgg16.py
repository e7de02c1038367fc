# padlab-input: 3x224x224
# An older tutorial's VGG-16 transfer: `pretrained=True` (the deprecated flag, still accepted),
# the features frozen, the last of the classifier's seven modules replaced for ten classes.
import torchvision
import torch.nn as nn

model = torchvision.models.vgg16(pretrained=True)
for p in model.features.parameters():
    p.requires_grad = False
model.classifier[6] = nn.Linear(4096, 10)
