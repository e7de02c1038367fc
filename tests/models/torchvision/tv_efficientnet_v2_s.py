# padlab-model: torchvision.models.efficientnet_v2_s(weights=None)
# padlab-input: 3x224x224
# torchvision's own EfficientNetV2-S (FusedMBConv, then MBConv), untrained:
# what printed_tv_efficientnet_v2_s.txt is printed from. Needs torchvision, which is not in the project's
# requirements (see tests/models/make_printouts.py).
import torchvision

model = torchvision.models.efficientnet_v2_s(weights=None)
