# padlab-model: torchvision.models.mobilenet_v3_small(weights=None)
# padlab-input: 3x224x224
# torchvision's own MobileNetV3-Small (SqueezeExcitation with Hardsigmoid,
# InvertedResidual under `block`, a Hardswish classifier), untrained:
# what printed_tv_mobilenet_v3_small.txt is printed from. Needs torchvision, which is not in the project's
# requirements (see tests/models/make_printouts.py).
import torchvision

model = torchvision.models.mobilenet_v3_small(weights=None)
