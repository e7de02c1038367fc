# padlab-model: torchvision.models.efficientnet_b0(weights=None)
# padlab-input: 3x224x224
# torchvision's own EfficientNet-B0 (MBConv with SqueezeExcitation and
# StochasticDepth), untrained:
# what printed_tv_efficientnet_b0.txt is printed from. Needs torchvision, which is not in the project's
# requirements (see tests/models/make_printouts.py).
import torchvision

model = torchvision.models.efficientnet_b0(weights=None)
