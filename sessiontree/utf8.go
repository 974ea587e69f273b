package sessiontree

// badUTF8 is the warning for a line whose strings hold bytes that are not
// UTF-8: the line is read, and each such byte reads as U+FFFD.
const badUTF8 = "invalid UTF-8: each broken byte is shown as the replacement character U+FFFD"
