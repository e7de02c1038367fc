# padlab-model: torchvision.models.shufflenet_v2_x0_5(weights=None)
# padlab-input: 3x224x224
# torchvision's own ShuffleNetV2 x0.5 (InvertedResidual: a chunk or two
# branches, then a channel shuffle), untrained:
# what printed_tv_shufflenet_v2_x0_5.txt is printed from. Needs torchvision, which is not in the project's
# requirements (see tests/models/make_printouts.py).
import torchvision

model = torchvision.models.shufflenet_v2_x0_5(weights=None)
