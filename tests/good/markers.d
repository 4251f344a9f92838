# 1 "original.d"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "original.d"
provider marked {
# 10 "original.d"
	probe at_ten(int x);
};
