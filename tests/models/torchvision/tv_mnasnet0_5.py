# padlab-model: torchvision.models.mnasnet0_5(weights=None)
# padlab-input: 3x224x224
# torchvision's own MNASNet 0.5 (_InvertedResidual, a mean over the spatial axes), untrained:
# what printed_tv_mnasnet0_5.txt is printed from. Needs torchvision, which is not in the project's
# requirements (see tests/models/make_printouts.py).
import torchvision

model = torchvision.models.mnasnet0_5(weights=None)
