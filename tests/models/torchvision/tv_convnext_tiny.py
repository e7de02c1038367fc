# padlab-model: torchvision.models.convnext_tiny(weights=None)
# padlab-input: 3x224x224
# torchvision's own ConvNeXt-Tiny (CNBlock: Permute() that prints no dims, LayerNorm and Linear
# channels last, a layer_scale parameter torch does not print; LayerNorm2d), untrained:
# what printed_tv_convnext_tiny.txt is printed from. Needs torchvision, which is not in the
# project's requirements (see tests/models/make_printouts.py).
import torchvision

model = torchvision.models.convnext_tiny(weights=None)
