# padlab-model: torchvision.models.inception_v3(weights=None)
# padlab-input: 3x299x299
# torchvision's own Inception v3 (InceptionA to E; InceptionAux runs only in
# training), untrained:
# what printed_tv_inception_v3.txt is printed from. Needs torchvision, which is not in the project's
# requirements (see tests/models/make_printouts.py).
import torchvision

model = torchvision.models.inception_v3(weights=None)
