provider empty {
};
provider also_empty { }
