/*
 * Shaped like Tcl's tclDTrace.d: pragmas, then the provider, then C
 * declarations after it, which SystemTap's dtrace cannot parse.
 */
#pragma D attributes Evolving/Evolving/Common provider tcl provider
#pragma D attributes Private/Private/Common provider tcl module
#pragma D attributes Private/Private/Common provider tcl function
#pragma D attributes Evolving/Evolving/Common provider tcl name
#pragma D attributes Evolving/Evolving/Common provider tcl args

provider tcl {
	probe proc__entry(char* name, int objc, struct Tcl_Obj **objv);
	probe proc__return(char* name, int code);
	probe proc__result(char* name, int code, char* result,
		struct Tcl_Obj *resultobj);
	probe proc__args(char* arg0, char* arg1, char* arg2, char* arg3,
		char* arg4, char* arg5, char* arg6, char* arg7, char* arg8,
		char* arg9);
	probe obj__create(struct Tcl_Obj *obj);
	probe tcl__probe(char* arg0, char* arg1, char* arg2, char* arg3,
		char* arg4, char* arg5, char* arg6, char* arg7, char* arg8,
		char* arg9);
};

struct Tcl_Obj {
	int refCount;
	char *bytes;
	int length;
	struct Tcl_ObjType *typePtr;
	union {
		long longValue;
		double doubleValue;
		void *otherValuePtr;
		struct {
			void *ptr1;
			void *ptr2;
		} twoPtrValue;
	} internalRep;
};

typedef struct Tcl_Obj Tcl_Obj;

/*
 * Local Variables:
 * mode: c
 * End:
 */
