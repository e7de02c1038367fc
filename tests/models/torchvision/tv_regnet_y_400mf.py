# padlab-model: torchvision.models.regnet_y_400mf(weights=None)
# padlab-input: 3x224x224
# torchvision's own RegNetY-400MF (ResBottleneckBlock with and without a
# projection, SqueezeExcitation inside BottleneckTransform), untrained:
# what printed_tv_regnet_y_400mf.txt is printed from. Needs torchvision, which is not in the project's
# requirements (see tests/models/make_printouts.py).
import torchvision

model = torchvision.models.regnet_y_400mf(weights=None)
