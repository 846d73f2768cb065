package app

// MaxFile is the page's file cap, for the external tests.
const MaxFile = maxFile
