package page

// AskArm is askArm, for the tests of package page_test.
const AskArm = askArm
