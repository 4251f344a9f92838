# Three slow calls and 200 fast ones: a profile whose top is known
# (README, "Profiling Python, Ruby, Perl and PHP"; tests/t_profile.sh).
# fast's 200 calls take about 50 ms together, so that no function of
# Python's own start-up passes them where uprobes are slow (its import
# functions fire the line probe at every line, 5 us a firing on a
# virtual machine); slow's 3 take about three times that.
def fast():
    return sum(range(20000))

def slow():
    return sum(range(5000000))

def work():
    for _ in range(3):
        slow()
    for _ in range(200):
        fast()

work()
