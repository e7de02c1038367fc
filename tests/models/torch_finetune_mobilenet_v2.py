# padlab-input: 3x224x224
# A torchvision MobileNetV2 fine-tuned for five classes, in the style of Kaggle notebooks and
# forum answers: the weights enum imported by name, the last classifier layer swapped by index
# and sized by the model's `last_channel`.
import torch
from torchvision.models import mobilenet_v2, MobileNet_V2_Weights

model = mobilenet_v2(weights=MobileNet_V2_Weights.DEFAULT)
model.classifier[1] = torch.nn.Linear(model.last_channel, 5)
